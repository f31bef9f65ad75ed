"""Who runs in the next step (priority with aging, admission control, preemption, batch limit), and
what a step's sampled tokens do to its requests (appended, stop checks, finished requests freed).

Every step the scheduler ranks all requests (a lower class value first; waiting time lowers
the rank so no class starves), keeps the best-ranked running requests in the batch, admits
waiting ones while KV blocks and the step's token budget allow (long prompts are prefilled in
chunks, so decodes keep flowing), and preempts the worst-ranked request (recompute: its blocks
are freed and its tokens prefilled again later, mostly from the prefix cache) when memory is
short. Prefill and decode tokens share one step. After the forward, :meth:`Scheduler.postprocess`
advances each request as nano-vllm's scheduler does: its computed tokens, the prefix cache, the new
tokens, and the end of the reply (end-of-turn token, stop string, token limit, context limit).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from app.engine.api import Delta, Priority
from app.engine.detokenizer import DetokenizerStep
from app.engine.kv_cache import BlockManager
from app.engine.measured import RecentMedians
from app.engine.sequence import Sequence, Status


@dataclass(frozen=True)
class SchedulerConfig:
    max_batch: int
    max_step_tokens: int
    aging_s: float
    itl_target_ms: float
    max_seq_len: int
    eos_ids: frozenset[int] = frozenset()  # end-of-turn tokens: a reply ends at the first one


@dataclass
class ScheduledBatch:
    """One step's work: decode rows (one token each) and prefill chunks."""

    decode: list[Sequence] = field(default_factory=list)
    prefill: list[tuple[Sequence, int]] = field(default_factory=list)
    preempted: list[Sequence] = field(default_factory=list)
    batch_limit: int = 0

    @property
    def num_seqs(self) -> int:
        return len(self.decode) + len(self.prefill)

    @property
    def has_voice(self) -> bool:
        return any(s.priority == Priority.VOICE for s in self.decode + [p for p, _ in self.prefill])

    @property
    def num_tokens(self) -> int:
        return len(self.decode) + sum(n for _, n in self.prefill)

    def __bool__(self) -> bool:
        return self.num_seqs > 0


@dataclass
class StepOutcome:
    """What a step's forward produced: the new tokens (or the error) of each row that samples, and how far
    the draft's cache got for each row it ran (speculative decoding)."""

    tokens: dict[Sequence, list[int]] = field(default_factory=dict)
    errors: dict[Sequence, str] = field(default_factory=dict)
    draft_computed: dict[Sequence, int] = field(default_factory=dict)
    verified: int = 0  # rows that verified proposals
    proposed: int = 0
    accepted: int = 0


@dataclass
class SeqOutput:
    """One request's share of a step: the delta to stream, and its token timing for the metrics."""

    seq: Sequence
    delta: Delta
    first_token: bool = False  # this step produced the reply's first token
    gap_s: float | None = None  # time since the request's previous token (None: it had none)


class BatchSizer:
    """The batch limit, answered by measurement: while a voice request is active the batch
    grows only as far as the measured decode step time stays under the inter-token target (or,
    on a machine where even the smallest batch misses it, within 1.5x of the smallest batch's
    time: batch size then barely matters to latency); otherwise throughput wins and the limit
    is ``max_batch``."""

    def __init__(self, max_batch: int, itl_target_ms: float) -> None:
        self.max_batch = max_batch
        self.itl_target_ms = itl_target_ms
        self.step_ms = RecentMedians()

    @staticmethod
    def bucket(batch_size: int) -> int:
        return 1 << max(0, math.ceil(math.log2(max(batch_size, 1))))

    def observe(self, batch_size: int, step_ms: float) -> None:
        """Record a decode-only step. A size's time is a median of its recent steps: a size priced over the budget by
        one stalled step would not run again while a voice request is active, so nothing would correct it."""
        self.step_ms.observe(self.bucket(batch_size), step_ms)

    def latency_cap(self) -> int:
        """Largest batch whose measured step time meets the budget. A size not measured yet is
        allowed when a larger measured size meets it, and otherwise tried once (then measured)."""
        smallest = self.step_ms[min(self.step_ms)] if self.step_ms else 0.0
        budget = max(self.itl_target_ms, 1.5 * smallest)
        cap = 1
        b = 1
        while True:
            size = min(b, self.max_batch)
            ms = self.step_ms.get(self.bucket(size))
            if ms is not None and ms > budget:
                break
            cap = size
            if ms is None and not any(k > size and v <= budget for k, v in self.step_ms.items()):
                break
            if size == self.max_batch:
                break
            b *= 2
        return cap

    def limit(self, latency_sensitive: bool) -> int:
        if latency_sensitive and self.itl_target_ms > 0:
            return self.latency_cap()
        return self.max_batch


class Scheduler:
    def __init__(self, config: SchedulerConfig, blocks: BlockManager) -> None:
        self.config = config
        self.blocks = blocks
        self.sizer = BatchSizer(config.max_batch, config.itl_target_ms)
        self.waiting: list[Sequence] = []
        self.running: list[Sequence] = []
        self.num_preemptions = 0
        self.last_limit = config.max_batch
        self.watermark = max(1, math.ceil(0.01 * blocks.num_blocks))
        # tokens a decode row may add beyond its one (a draft's proposals, verified in the same step):
        # their blocks are taken only when free, never by preempting, so speculation never costs a request
        self.lookahead = 0

    # --- queue management ---
    def add(self, seq: Sequence) -> None:
        seq.status = Status.WAITING
        self.waiting.append(seq)

    def remove(self, seq: Sequence) -> None:
        """Drop a finished or cancelled request and free its KV at once."""
        if seq in self.running:
            self.running.remove(seq)
        elif seq in self.waiting:
            self.waiting.remove(seq)
        self.blocks.release(seq)
        seq.status = Status.FINISHED

    def has_work(self) -> bool:
        return bool(self.waiting or self.running)

    def rank(self, seq: Sequence, now: float) -> tuple[float, float]:
        """Lower ranks run first: the class, minus one class per ``aging_s`` seconds without a place
        in a step (since arrival, or since it last ran), so a request that keeps running does not
        outrank newer voice requests while one left waiting rises until it runs."""
        since = seq.last_served if seq.last_served is not None else seq.arrival
        aged = (now - since) / self.config.aging_s if self.config.aging_s > 0 else 0.0
        return (int(seq.priority) - aged, seq.arrival)

    def _reserve(self) -> int:
        """Blocks kept free for running requests to grow into before a new one is admitted."""
        return self.watermark if self.running else 0

    def _preempt_worst(self, seq: Sequence, chosen: dict[Sequence, int], now: float, batch: ScheduledBatch) -> bool:
        """Free memory for ``seq`` by preempting the worst-ranked running request ranked below it."""
        rank = self.rank(seq, now)
        victims = [s for s in self.running if s is not seq and s not in chosen and self.rank(s, now) > rank]
        if not victims:
            return False
        victim = max(victims, key=lambda s: self.rank(s, now))
        self._preempt(victim)
        batch.preempted.append(victim)
        return True

    def _preempt(self, seq: Sequence) -> None:
        self.running.remove(seq)
        self.blocks.release(seq)
        seq.status = Status.WAITING
        seq.preemptions += 1
        self.num_preemptions += 1
        self.waiting.append(seq)

    def _projected_blocks(self, seq: Sequence) -> int:
        """Blocks a request holds when it ends (prompt plus its whole reply, up to max_seq_len)."""
        final = min(seq.prompt_len + seq.max_new_tokens, self.config.max_seq_len)
        return self.blocks.blocks_for(max(final, len(seq)))

    def _kv_limit(self, ranked_waiting: list[Sequence]) -> int:
        """How many requests the free KV can carry to completion: the running ones plus the
        waiting ones (in rank order) whose projected size still fits, at least one. Admission
        itself only needs the next chunk to fit; this limit keeps the batch from growing into
        certain preemptions. No limit while everything fits."""
        spare = self.blocks.num_free - sum(
            max(0, self._projected_blocks(s) - len(s.block_table)) for s in self.running
        )
        for fits, seq in enumerate(ranked_waiting):
            need = self._projected_blocks(seq)
            if need > spare:
                return len(self.running) + max(fits, 1)
            spare -= need
        return self.config.max_batch

    # --- the step ---
    def schedule(self, now: float) -> ScheduledBatch:
        ranked_running = sorted(self.running, key=lambda s: self.rank(s, now))
        ranked_waiting = sorted(self.waiting, key=lambda s: self.rank(s, now))
        # the latency cap holds back text, never voice: a voice request kept out of the batch
        # waits a whole reply for its first token, which costs more than a slower step. Nor does
        # it starve text: one place beyond the voice requests goes to the best-ranked other one
        # (aging alone gave a streaming typed reply one token per aging period under voice load)
        voice = sum(1 for s in ranked_running + ranked_waiting if s.priority == Priority.VOICE)
        others = len(ranked_running) + len(ranked_waiting) - voice
        floor = voice + (1 if voice and others else 0)
        limit = min(max(self.sizer.limit(voice > 0), floor), self._kv_limit(ranked_waiting))
        self.last_limit = limit
        batch = ScheduledBatch(batch_limit=limit)
        chosen: dict[Sequence, int] = {}
        budget = self.config.max_step_tokens
        admitting = True  # a waiting request that does not fit blocks the waiting ones behind it

        # running and waiting requests compete in one rank order for the batch's places; a voice
        # request waiting for its first forward gets a step of voice work only (the shortest
        # possible time to its first token; other requests lose one step)
        candidates = sorted(ranked_running + ranked_waiting, key=lambda s: self.rank(s, now))
        if any(s.priority == Priority.VOICE for s in ranked_waiting):
            candidates = [s for s in candidates if s.priority == Priority.VOICE]
        for seq in candidates:
            if len(chosen) >= limit:
                break
            if seq in batch.preempted:
                continue
            if seq.status is Status.RUNNING:
                n = 1 if seq.is_decoding else min(seq.num_pending, budget)
                if n <= 0:
                    continue
                need = self.blocks.blocks_needed(seq, n)
                while need > self.blocks.num_free and self._preempt_worst(seq, chosen, now, batch):
                    pass
                if need > self.blocks.num_free:
                    self._preempt(seq)
                    batch.preempted.append(seq)
                    continue
                self.blocks.grow(seq, n)
                if n == 1 and self.lookahead:
                    room = self.blocks.num_free - self._reserve()
                    if self.blocks.blocks_needed(seq, 1 + self.lookahead) <= room:
                        self.blocks.grow(seq, 1 + self.lookahead)
            else:
                if not admitting or budget <= 0:
                    continue
                n = min(len(seq) - self.blocks.cached_prefix_len(seq), budget)
                need = self.blocks.blocks_needed(seq, n)
                while need + self._reserve() > self.blocks.num_free and self._preempt_worst(seq, chosen, now, batch):
                    pass
                if need + self._reserve() > self.blocks.num_free:
                    admitting = False
                    continue
                self.waiting.remove(seq)
                self.blocks.admit(seq)
                n = min(seq.num_pending, budget)
                self.blocks.grow(seq, n)
                seq.status = Status.RUNNING
                self.running.append(seq)
            chosen[seq] = n
            budget -= n

        for seq, n in chosen.items():
            seq.last_served = now
            if seq.is_decoding:
                batch.decode.append(seq)
            else:
                batch.prefill.append((seq, n))
        return batch

    # --- after the forward ---
    def postprocess(self, batch: ScheduledBatch, outcome: StepOutcome, started: float, now: float) -> list[SeqOutput]:
        """Apply a step that began at ``started``: what the caches now hold, each sampled request's new tokens
        (those after the end of its reply dropped) and finished requests removed with their KV freed. Requests
        cancelled during the forward are skipped."""
        for seq in batch.decode:
            if seq.status is Status.RUNNING:
                seq.num_computed += max(1, len(outcome.tokens.get(seq, ())))  # a verified run computed them all
        for seq, n in batch.prefill:
            if seq.status is Status.RUNNING:
                seq.num_computed += n
        for seq, drafted in outcome.draft_computed.items():
            if seq.status is Status.RUNNING:
                seq.draft_computed = drafted
        outputs = [self._append(seq, tokens, outcome.errors.get(seq), now)
                   for seq, tokens in outcome.tokens.items() if seq.status is Status.RUNNING]
        for seq in batch.decode + [s for s, _ in batch.prefill]:
            if seq.status is Status.RUNNING:  # after the append: a block is full when its tokens are in token_ids
                self.blocks.commit(seq)
        if batch.decode and not batch.prefill:  # the batch sizer weighs the time per token: a verified run hands out several
            generated = sum(len(out.delta.token_ids) for out in outputs)
            self.sizer.observe(len(batch.decode), (now - started) * 1000 * len(batch.decode) / max(generated, len(batch.decode)))
        return outputs

    def _append(self, seq: Sequence, tokens: list[int], error: str | None, now: float) -> SeqOutput:
        """A step's tokens (several after a verified speculation) as one delta, up to the end of the reply."""
        first, gap = seq.first_token_at is None, None if seq.last_token_at is None else now - seq.last_token_at
        if error is not None or not tokens:
            self.remove(seq)
            text = seq.detok.flush() if seq.detok else ""
            return SeqOutput(seq, Delta(seq.request_id, [], text, True, "error", seq.dropped_turns, error or "no token sampled"))
        appended: list[int] = []
        text, reason = "", None
        for token in tokens:
            seq.token_ids.append(token)
            appended.append(token)
            step = seq.detok.push(token) if seq.detok else DetokenizerStep("", False)
            text += step.text
            reason = self._finish_reason(seq, token, step.stopped)
            if reason is not None:
                if not step.stopped and seq.detok:
                    text += seq.detok.flush()
                self.blocks.commit(seq)  # its blocks filled in this step stay reusable (a one-token request's prompt)
                self.remove(seq)
                break
        if first:
            seq.first_token_at = now
        seq.last_token_at = now
        return SeqOutput(seq, Delta(seq.request_id, appended, text, reason is not None, reason, seq.dropped_turns), first, gap)

    def _finish_reason(self, seq: Sequence, token: int, stop_string: bool) -> str | None:
        """Why the reply ends at ``token`` (just appended), or None while it goes on."""
        if stop_string or (token in self.config.eos_ids and not seq.params.ignore_eos):
            return "stop"
        if seq.num_generated >= seq.max_new_tokens or len(seq) >= self.config.max_seq_len:
            return "length"
        return None
