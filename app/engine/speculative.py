"""Speculative decoding inside continuous batching: a small draft model (or prompt lookup) proposes, the target verifies.

A speculating decode row gets k proposals from k batched single-token steps of the draft (a model
of the same tokenizer, with its own KV cache addressed by the target's block tables), or, with no
draft model, from prompt lookup: the tokens that followed the latest earlier occurrence of the row's
last few tokens in its own context (a reply naming what the question named, "The capital of France
is", or repeating its own words), which cost nothing to propose. Then one target forward verifies
them all: the row's last token and its proposals run as k+1 single-query rows, so the target's
logits at every position come from one pass over its weights. A CPU decode
step streams every weight once whatever the number of rows, so k+1 tokens a row cost little more
than one: that is the gain, while the batch is small and the draft is often right.

Greedy rows accept the longest prefix of proposals that the target's argmax agrees with, plus the
target's own next token: the output is exactly the plain greedy output. Sampled rows use the
rejection rule (accept with min(1, p/q), else draw from norm(max(0, p - q))), which keeps the
target's distribution. p and q both go through the row's repetition penalty, temperature, top-k,
top-p and phrase limit, over the context each position would see; a looked-up proposal's q is certain (one-hot).

The draft's cache lags the target's by the tokens it has not run yet (the last proposal when
all were accepted, whatever was decoded while speculation was off): its first forward of a step
catches up on them, and runs the step's prefill chunks too, so a prompt is in both caches.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import torch

from app.engine.attention import Chunk, pack
from app.engine.measured import RecentMedian, RecentMedians
from app.engine.model_runner import ModelRunner
from app.engine.sampling import NAN_ERROR, draw, nucleus, probabilities, sample, steer
from app.engine.scheduler import ScheduledBatch, StepOutcome
from app.engine.sequence import Sequence

SINGLE_MAX = 8  # a draft catch-up up to this many tokens attends as single-query rows (in place, no padding)
LOOKUP_NGRAM = 3  # prompt lookup matches the context's last 3 tokens, else 2, else 1


# --- prompt lookup ---------------------------------------------------------------------------------


def lookup(context: list[int], k: int, max_ngram: int = LOOKUP_NGRAM) -> list[int]:
    """Up to ``k`` tokens that followed the latest earlier occurrence of the context's last n tokens, for the
    longest n up to ``max_ngram`` that occurs earlier; none when even the last token is new."""
    ids = np.asarray(context)
    for n in range(min(max_ngram, len(ids) - 1), 0, -1):
        tail = ids[-n:]
        for start in np.flatnonzero(ids[: len(ids) - n] == tail[0])[::-1]:
            if (ids[start : start + n] == tail).all():
                return ids[start + n : start + n + k].tolist()
    return []


# --- the acceptance rule ---------------------------------------------------------------------------


def accept_greedy(target_picks: list[int], proposals: list[int]) -> list[int]:
    """The target's own tokens (``target_picks``: its argmax after each of the k+1 inputs) up to and
    including the first one that differs from the proposal at that place."""
    out: list[int] = []
    for target, proposal in zip(target_picks, proposals + [None]):
        out.append(target)
        if target != proposal:
            break
    return out


def accept_sampled(target: Callable[[int], tuple[torch.Tensor, torch.Tensor]], drafts: list[torch.Tensor] | None,
                   proposals: list[int], generator: torch.Generator | None = None) -> list[int]:  # fmt: skip
    """Rejection sampling: ``target(j)`` the target's distribution at place j as its nucleus (token ids, their
    probabilities: zero elsewhere; asked only for the places the run reaches, a rejection ends it), ``drafts`` the
    draft's at each place over the vocabulary (None: each proposal certain, as looked up).

    Proposal x is kept with probability min(1, p(x)/q(x)); the first one rejected is replaced by a draw
    from norm(max(0, p - q)) and ends the run; when all are kept, one more token is drawn from p's last row.
    Every returned token is distributed as the target alone would have drawn it.
    """
    out: list[int] = []
    for j, x in enumerate(proposals):
        ids, probs = target(j)
        p_x = float(probs[ids == x].sum())
        if torch.rand((), generator=generator).item() * (drafts[j][x].item() if drafts else 1.0) < p_x:
            out.append(x)
            continue
        residual = (probs - drafts[j][ids]).clamp_min(0) if drafts else probs.masked_fill(ids == x, 0.0)
        out.append(int(ids[draw(residual if residual.sum() > 0 else probs, generator)]))
        return out
    ids, probs = target(len(proposals))
    out.append(int(ids[draw(probs, generator)]))
    return out


def expected_tokens(acceptance: float, k: int) -> float:
    """Tokens a verify step yields per row when each proposal is accepted with probability ``acceptance``."""
    return float(k + 1) if acceptance >= 1.0 else (1.0 - acceptance ** (k + 1)) / (1.0 - acceptance)


# --- when it pays --------------------------------------------------------------------------------


class ForwardTimes:
    """Measured forward time by the number of tokens in it: a :class:`RecentMedian` per size, linear in between."""

    def __init__(self) -> None:
        self.ms_by_tokens = RecentMedians()

    def observe(self, tokens: int, ms: float) -> None:
        self.ms_by_tokens.observe(tokens, ms)

    def ms(self, tokens: int) -> float:
        known = sorted(self.ms_by_tokens.items())
        if not known:
            return 1.0
        below = [(t, m) for t, m in known if t <= tokens]
        above = [(t, m) for t, m in known if t >= tokens]
        if below and above:
            (t0, m0), (t1, m1) = below[-1], above[0]
            return m0 if t1 == t0 else m0 + (m1 - m0) * (tokens - t0) / (t1 - t0)
        if above:
            return above[0][1]
        if len(known) == 1:
            return known[0][1] * tokens / known[0][0]
        (t0, m0), (t1, m1) = known[-2], known[-1]
        return m1 + max(0.0, (m1 - m0) / (t1 - t0)) * (tokens - t1)


class SpeculationPolicy:
    """k for the next step: the one that maximises the expected tokens per second of a decode step of
    ``rows`` rows, from the measured acceptance rate and the measured forward times of both models.
    0 when no k beats a plain step by ``MARGIN``: with a large batch the target's forward no longer costs
    about the same for k+1 tokens a row as for one (compute, not streaming the weights, bounds it)."""

    MARGIN = 1.05
    EMA = 0.1
    PRIOR = 0.7  # a draft model's per-token acceptance assumed before any is measured, and drifted back to while off
    LOOKUP_PRIOR = 0.25  # prompt lookup's, as measured on the quality set's replies (docs/benchmarks.md)

    def __init__(self, max_k: int, draft_model: bool = True) -> None:
        self.max_k = max_k
        self.acceptance = self.PRIOR if draft_model else self.LOOKUP_PRIOR  # per token (geometric model)
        self.target = ForwardTimes()
        self.draft = ForwardTimes() if draft_model else None  # None: proposals cost nothing (prompt lookup)
        # a draft model's acceptance is measured only while it speculates, so while off it drifts back to the prior
        # and is tried again; prompt lookup's is measured on plain steps too (Speculator.observe_plain)
        self.drifts = draft_model
        self.overhead = RecentMedian()  # ms per row and speculative step beyond the forwards: packing, proposing, accepting

    def gain(self, rows: int, k: int) -> float:
        """Expected tokens per second with k proposals a row, over a plain step's."""
        if k == 0:
            return 1.0
        plain = self.target.ms(rows)
        propose = k * self.draft.ms(rows) if self.draft is not None else 0.0
        spec = propose + self.target.ms(rows * (k + 1)) + self.overhead.value * rows
        return expected_tokens(self.acceptance, k) * plain / spec

    def choose(self, rows: int) -> int:
        if rows < 1 or self.max_k < 1:
            return 0
        gains = {k: self.gain(rows, k) for k in range(1, self.max_k + 1)}
        best = max(gains, key=gains.__getitem__)
        if gains[best] < self.MARGIN:
            best = 0
            if self.drifts and self.acceptance < self.PRIOR:  # one measured long ago says little about today's replies
                self.acceptance += 0.01 * (self.PRIOR - self.acceptance)
        return best

    def observe(self, accepted: int, rejected_rows: int) -> None:
        """One verify step: proposals accepted, and rows whose run ended in a rejection (maximum likelihood
        of the per-token rate: a row stops at its first rejection, so later proposals say nothing)."""
        if accepted + rejected_rows:
            rate = accepted / (accepted + rejected_rows)
            self.acceptance += self.EMA * (rate - self.acceptance)


# --- the step ------------------------------------------------------------------------------------


@dataclass(eq=False)
class Row:
    """One sequence's part in a speculative step, copied under the engine lock: a cancel during the
    forwards (which frees its blocks) changes nothing the step reads."""

    seq: Sequence
    block_table: list[int]
    context: list[int]  # its tokens so far
    start: int  # tokens in the target's cache
    draft_start: int  # tokens in the draft's cache
    catch_up: int  # tokens the draft runs first (from draft_start), proposals aside
    k: int  # proposals (0: the row decodes plainly)
    prefill: int = 0  # a prefill chunk's size (0: a decode row)
    proposals: list[int] = field(default_factory=list)
    q: list[torch.Tensor] = field(default_factory=list)  # the draft's distributions (sampled rows)

    @property
    def greedy(self) -> bool:
        return self.seq.params.temperature <= 0.0

    def target_chunk(self) -> Chunk:
        if self.prefill:
            end = self.start + self.prefill
            return Chunk(self.block_table, self.start, self.context[self.start : end], int(end == len(self.context)))
        return Chunk(self.block_table, self.start, self.context[-1:] + self.proposals, 1 + len(self.proposals), True)


@dataclass
class SpecPlan:
    batch: ScheduledBatch
    rows: list[Row]
    k: int


class Speculator:
    """The draft model beside the target (None: prompt lookup proposes), and the policy that says when and how far
    it proposes."""

    CALIBRATION_RUNS = 3  # timed runs of each forward size at start-up: one stall is then not the median

    def __init__(self, draft: ModelRunner | None, target: ModelRunner, max_k: int, max_catch_up: int,
                 max_seq_len: int) -> None:  # fmt: skip
        self.draft = draft
        self.block_size = target.cache.block_size
        self.device = target.device
        self.vocab = min(draft.vocab_size, target.vocab_size) if draft is not None else target.vocab_size
        self.policy = SpeculationPolicy(max_k, draft_model=draft is not None)
        self.max_catch_up = max_catch_up
        self.max_seq_len = max_seq_len
        self.last_k = 0
        self._shadow: dict[Sequence, int] = {}  # a plain step's rows and lookup's first proposal for each

    def calibrate(self, target: ModelRunner, block_table: list[int], context: int) -> None:
        """Time both models' forwards of a few single-query rows before the first request, so the first
        steps choose k from measurements (the running engine keeps measuring)."""
        timed = [(target, self.policy.target, (1, 2, 4, 8, 16))]
        if self.draft is not None and self.policy.draft is not None:
            timed.append((self.draft, self.policy.draft, (1, 2, 4)))
        for runner, times, sizes in timed:
            runner.run(pack([Chunk(block_table, 0, [1] * context)], self.block_size, self.device))
            for tokens in sizes:
                inputs = pack([Chunk(block_table, context, [1] * tokens, tokens, True)], self.block_size, self.device)
                runner.run(inputs)  # the first run of a shape pays one-off costs
                for _ in range(self.CALIBRATION_RUNS):
                    started = time.perf_counter()
                    runner.run(inputs)
                    times.observe(tokens, (time.perf_counter() - started) * 1000)

    def plan(self, batch: ScheduledBatch) -> SpecPlan | None:
        """Under the engine lock: the step's rows and their proposal counts, or None for a plain step."""
        k = self.policy.choose(len(batch.decode))
        if any(seq.probe_in(n) is not None for seq, n in batch.prefill):
            k = 0  # a verify step reads each prefill chunk's last logits only: a plain step reads the probe too
        elif batch.prefill and self.draft is None:
            # a prompt's first token waits for the step, which a verify lengthens by every decode row's proposals;
            # lookup loses only those (a draft model keeps them: the step also runs the chunk into its cache)
            k = 0
        self.last_k = k
        self._shadow = {}
        if k == 0:
            if self.draft is None:  # what lookup would propose first, checked against the step's tokens
                self._shadow = {seq: first[0] for seq in batch.decode if (first := lookup(seq.token_ids, 1))}
            return None
        rows = []
        for seq in batch.decode:
            room = len(seq.block_table) * self.block_size - seq.num_computed
            left = min(seq.max_new_tokens - seq.num_generated, self.max_seq_len - len(seq) + 1)
            k_row = max(0, min(k, room - 1, left - 1))
            if self.draft is None:
                proposals = lookup(seq.token_ids, k_row) if k_row else []
                rows.append(Row(seq, list(seq.block_table), list(seq.token_ids), seq.num_computed, seq.num_computed, 0,
                                len(proposals), proposals=proposals))  # fmt: skip
                continue
            lag = len(seq) - seq.draft_computed
            catch_up = min(lag, self.max_catch_up)
            rows.append(Row(seq, list(seq.block_table), list(seq.token_ids), seq.num_computed, seq.draft_computed,
                            catch_up, k_row if catch_up == lag else 0))  # fmt: skip
        for seq, n in batch.prefill:
            catch_up = max(0, min(seq.num_computed + n - seq.draft_computed, self.max_catch_up)) if self.draft else 0
            rows.append(Row(seq, list(seq.block_table), list(seq.token_ids), seq.num_computed, seq.draft_computed,
                            catch_up, 0, n))
        if not any(r.k for r in rows):
            return None
        return SpecPlan(batch, rows, k)

    def run(self, plan: SpecPlan, target: ModelRunner, should_abort: Callable[[], bool] | None) -> StepOutcome | None:
        """Propose, verify in one target forward, accept. None when the target's forward was aborted: a seeded row's
        generator is then as before the draft drew from it, so the step run again draws the same."""
        started = time.perf_counter()
        seeded = {} if should_abort is None else {  # (a step that cannot be dropped keeps none)
            r.seq.generator: r.seq.generator.get_state() for r in plan.rows if r.seq.generator is not None}
        draft_ms = self._propose(plan) if self.draft is not None else 0.0  # lookup rows came with their proposals
        inputs = pack([r.target_chunk() for r in plan.rows], self.block_size, self.device)
        forward_started = time.perf_counter()
        logits = target.run(inputs, should_abort)
        if logits is None:
            for generator, state in seeded.items():
                generator.set_state(state)
            return None
        target_ms = (time.perf_counter() - forward_started) * 1000
        outcome = self._accept(plan, logits[:, : self.vocab])
        if not plan.batch.prefill:
            policy = self.policy
            policy.target.observe(sum(1 + len(r.proposals) for r in plan.rows), target_ms)
            policy.overhead.observe(((time.perf_counter() - started) * 1000 - draft_ms - target_ms) / len(plan.rows))
        ended = [r for r in plan.rows if r.proposals and len(outcome.tokens.get(r.seq, ())) <= len(r.proposals)]
        self.policy.observe(outcome.accepted, len(ended))
        return outcome

    def observe_plain(self, batch: ScheduledBatch, forward_ms: float, outcome: StepOutcome) -> None:
        """A plain decode step's forward time, for the policy's comparison; with prompt lookup, whether the rows'
        first proposals would have been accepted (the target's own tokens: greedy, or drawn as a verify would)."""
        if batch.decode and not batch.prefill:
            self.policy.target.observe(len(batch.decode), forward_ms)
        shadow = {seq: token for seq, token in self._shadow.items() if seq in batch.decode}  # (not a failed step's)
        self._shadow = {}
        if shadow:
            accepted = sum(outcome.tokens.get(seq, [])[:1] == [token] for seq, token in shadow.items())
            self.policy.observe(accepted, len(shadow) - accepted)

    # --- the draft ---
    def _propose(self, plan: SpecPlan) -> float:
        """k batched draft steps; the first also runs each row's catch-up and the prefill chunks.
        Returns the milliseconds its forwards took."""
        chunks, asking = [], []
        total_ms = 0.0
        for row in plan.rows:
            if row.catch_up:
                wants = int(row.k > 0)
                tokens = row.context[row.draft_start : row.draft_start + row.catch_up]
                chunks.append(Chunk(row.block_table, row.draft_start, tokens, wants, row.catch_up <= SINGLE_MAX))
                if wants:
                    asking.append(row)
        for step in range(plan.k):
            if step:
                asking = [r for r in asking if r.k > step and len(r.proposals) == step]
                chunks = [Chunk(r.block_table, len(r.context) + step - 1, r.proposals[-1:], 1, True) for r in asking]
            if not chunks:
                break
            inputs = pack(chunks, self.block_size, self.device)
            started = time.perf_counter()
            logits = self.draft.run(inputs)[:, : self.vocab]
            ms = (time.perf_counter() - started) * 1000
            total_ms += ms
            if step:
                self.policy.draft.observe(len(chunks), ms)
            self._draft_pick(logits, asking)
        return total_ms

    def _draft_pick(self, logits: torch.Tensor, rows: list[Row]) -> None:
        finite = torch.isfinite(logits.amax(dim=-1)).tolist()  # no NaN (-inf marks a token outside the draft's shortlist)
        argmax = logits.argmax(dim=-1).tolist()
        for i, row in enumerate(rows):
            if not finite[i]:
                continue  # no proposal: the row's run ends here
            plain = logits[i]
            scores = steer(plain, row.seq, row.context + row.proposals)
            if row.greedy:
                row.proposals.append(argmax[i] if scores is plain else int(scores.argmax()))
                continue
            q = probabilities(scores, row.seq.params)
            if row.seq.generator is not None:
                q = q.cpu()
            row.proposals.append(draw(q, row.seq.generator))
            row.q.append(q)

    # --- verification ---
    def _accept(self, plan: SpecPlan, logits: torch.Tensor) -> StepOutcome:
        out = StepOutcome()
        plain: list[tuple[Row, torch.Tensor]] = []  # rows sampled the ordinary way
        offset = 0
        for row in plan.rows:
            n = row.target_chunk().logits
            rows_logits, offset = logits[offset : offset + n], offset + n
            drafted = row.draft_start + row.catch_up
            if not row.proposals:
                out.draft_computed[row.seq] = drafted
                if n:
                    plain.append((row, rows_logits[0]))
                continue
            if not torch.isfinite(rows_logits.sum()):
                out.tokens[row.seq], out.errors[row.seq] = [], NAN_ERROR
                continue
            tokens = self._accept_row(row, rows_logits)
            accepted = len(tokens) - 1
            out.tokens[row.seq] = tokens
            out.draft_computed[row.seq] = drafted + min(accepted, len(row.proposals) - 1)
            out.verified += 1
            out.proposed += len(row.proposals)
            out.accepted += accepted
        if plain:
            result = sample(torch.stack([logits for _, logits in plain]), [r.seq for r, _ in plain])
            for (row, _), token, error in zip(plain, result.token_ids, result.errors):
                out.tokens[row.seq] = [] if token is None else [token]
                if error is not None:
                    out.errors[row.seq] = error
        return out

    @staticmethod
    def _accept_row(row: Row, logits: torch.Tensor) -> list[int]:
        places = list(logits)  # place j: after the row's context and its first j proposals

        def steered(j: int) -> torch.Tensor:
            return steer(places[j], row.seq, row.context + row.proposals[:j])

        if row.greedy:
            scores = [steered(j) for j in range(len(places))]
            plain = all(s is p for s, p in zip(scores, places))
            picks = logits.argmax(dim=-1).tolist() if plain else [int(s.argmax()) for s in scores]
            return accept_greedy(picks, row.proposals)

        def target(j: int) -> tuple[torch.Tensor, torch.Tensor]:
            ids, probs = nucleus(steered(j), row.seq.params)
            return (ids.cpu(), probs.cpu()) if row.seq.generator is not None else (ids, probs)

        return accept_sampled(target, row.q or None, row.proposals, row.seq.generator)
