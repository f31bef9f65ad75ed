"""Next-token choice for a batch of rows, each with its own sampling parameters.

Logits arrive in fp32 (the half-precision pitfall: softmax over bf16/fp16 logits loses the
tail). A row with NaN/inf logits fails only its own request; the rest of the batch goes on.
Order follows transformers: repetition penalty and the phrase limit (``app/engine/phrase_limit.py``: the tokens that
would break it get no chance), then temperature, top-k, top-p.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from app.engine.api import SamplingParams
from app.engine.phrase_limit import phrase_ban
from app.engine.sequence import Sequence


NAN_ERROR = "the model produced NaN/inf logits for this request"


@dataclass
class SampleResult:
    token_ids: list[int | None]  # None where the row failed
    errors: list[str | None]


def steer(logits: torch.Tensor, seq: Sequence, context: list[int]) -> torch.Tensor:
    """``logits`` [V] of the token after ``context`` (``seq``'s tokens so far, or with proposals) under the row's
    repetition penalty (transformers' rule, over the whole context), phrase limit (over the reply; only the reply's
    end tokens where it would take the likeliest token) and call floor (at the reply's first token: text below it, a
    call's opening at or above it): the same tensor where none changes anything, else a copy."""
    params = seq.params
    limit = params.phrase_repeat_limit
    banned = phrase_ban(seq.texts, context[seq.prompt_len :], limit) if limit and seq.texts is not None else ()
    # the call floor at the reply's first token: below it the reply answers in words, at or above it the reply calls
    # (words drawn there, with tools in the prompt, talk about the tools: "you can use the get_weather function")
    floored = bool(seq.call_openings) and params.call_floor > 0 and len(context) == seq.prompt_len
    below = floored and _call_share(logits, seq.call_openings) < params.call_floor
    if below:
        seq.below_call_floor = True  # the caller may write the reply again without tools (Delta.below_call_floor)
    if params.repetition_penalty == 1.0 and not banned and not floored:
        return logits
    logits = logits.clone()
    if below:
        logits[torch.tensor(seq.call_openings, device=logits.device)] = float("-inf")
    elif floored:
        logits = _only(logits, seq.call_openings)
    if params.repetition_penalty != 1.0:
        seen = torch.tensor(sorted(set(context)), device=logits.device)
        scores = logits[seen]
        logits[seen] = torch.where(scores < 0, scores * params.repetition_penalty, scores / params.repetition_penalty)
    ends = [t for t in seq.end_ids if t < len(logits)] if banned and not params.ignore_eos else []
    if ends and int(logits.argmax()) in banned:
        # the likeliest next token would say a phrase once too often: the reply has nothing new to say, so it ends
        # here (a weak model steered off its loop rambles on to the token limit instead)
        return _only(logits, ends)
    if banned:
        logits[torch.tensor(sorted(banned), device=logits.device)] = float("-inf")
    return logits


def _only(logits: torch.Tensor, token_ids: list[int] | tuple[int, ...]) -> torch.Tensor:
    """A copy of ``logits`` in which only ``token_ids`` can be drawn."""
    kept = torch.tensor(token_ids, device=logits.device)
    return torch.full_like(logits, float("-inf")).index_copy_(0, kept, logits[kept])


def _call_share(logits: torch.Tensor, openings: tuple[int, ...]) -> float:
    """The model's own probability (no penalty, no temperature) that the next token opens a call."""
    return float(logits.softmax(-1)[torch.tensor(openings, device=logits.device)].sum())


def probabilities(logits: torch.Tensor, params: SamplingParams) -> torch.Tensor:
    """What a sampled row draws from, over the whole vocabulary: :func:`nucleus`, zero elsewhere."""
    ids, probs = nucleus(logits, params)
    return torch.zeros_like(logits).index_copy_(-1, ids, probs)


def nucleus(logits: torch.Tensor, params: SamplingParams) -> tuple[torch.Tensor, torch.Tensor]:
    """The tokens a sampled row may draw and their probabilities: temperature, top-k and top-p over (steered)
    ``logits`` [V]."""
    probs = (logits / params.temperature).softmax(-1)
    vocab = probs.shape[-1]
    if 0 < params.top_k < vocab:
        values, ids = probs.topk(params.top_k)
        values = values / values.sum()
    elif params.top_p < 1.0:
        # the nucleus lies among the likeliest tokens: a partial sort (topk), widened until it holds top_p,
        # finds the same tokens (up to rounding at its edge) as sorting the whole vocabulary, which takes
        # tens of ms for 150k tokens on a CPU: per row and step, and k+1 times over when verifying proposals
        # (a flat distribution, whose nucleus is a large part of the vocabulary, is sorted whole)
        n = min(64, vocab)
        while True:
            values, ids = probs.topk(n) if 16 * n <= vocab else probs.sort(descending=True)
            if len(values) == vocab or values.sum() >= params.top_p:
                break
            n *= 8
    else:
        return torch.arange(vocab, device=probs.device), probs
    if params.top_p < 1.0:
        keep = values.cumsum(-1) - values < params.top_p  # up to the token that crosses top_p
        values, ids = values[keep], ids[keep]
    return ids, values / values.sum()


def draw(probs: torch.Tensor, generator: torch.Generator | None = None) -> int:
    """An index of ``probs`` [n] (nonnegative, any positive sum) drawn with probability in proportion to its entry, from
    one uniform number and the cumulative sums. ``torch.multinomial`` draws a random number for every entry: over a
    150k-token vocabulary that is milliseconds on a CPU, per sampled row and step (docs/benchmarks.md)."""
    cdf = probs.double().cumsum(-1)
    point = torch.rand((), dtype=torch.float64, generator=generator).item() * cdf[-1].item()
    return min(int(torch.searchsorted(cdf, torch.tensor(point, dtype=torch.float64, device=cdf.device), right=True)),
               len(cdf) - 1)


def _steered(logits: torch.Tensor, seqs: list[Sequence]) -> torch.Tensor:
    """``logits`` [N, V] with each row :func:`steer`-ed for its sequence: the same tensor where no row changes."""
    changed = {}
    for i, seq in enumerate(seqs):
        row = logits[i]
        if (steered := steer(row, seq, seq.token_ids)) is not row:
            changed[i] = steered
    if not changed:
        return logits
    logits = logits.clone()
    for i, row in changed.items():
        logits[i] = row
    return logits


def record_token_probs(logits: torch.Tensor, seq: Sequence) -> None:
    """The probabilities ``seq`` asked for (``params.token_probs``), from the model's own distribution ``logits``
    [V] (fp32) at the position they are read at; a row with NaN/inf logits answers nothing."""
    ids = list(seq.params.token_probs)
    probs = logits.softmax(-1)[ids]
    if bool(torch.isfinite(probs).all()):
        seq.token_probs = dict(zip(ids, probs.tolist()))


def _record_next_token_probs(logits: torch.Tensor, seqs: list[Sequence], bad: list[bool]) -> None:
    """``params.token_probs`` read at the first sampled position: every sampled row passes here, in plain and in
    speculative steps."""
    for row, seq in enumerate(seqs):
        if seq.params.token_probs and seq.params.token_probs_at == "next" and seq.token_probs is None and not bad[row]:
            record_token_probs(logits[row], seq)


def sample(logits: torch.Tensor, seqs: list[Sequence]) -> SampleResult:
    """One token per row of ``logits`` [N, V] (fp32) for ``seqs`` (same order)."""
    # a row's sum is finite exactly when all its logits are (no fp32 logit row sums to an overflow
    # unless its values are garbage anyway); one sum costs a tenth of an elementwise check on a CPU
    bad = (~torch.isfinite(logits.sum(dim=-1))).tolist()
    tokens: list[int | None] = [None] * len(seqs)
    errors: list[str | None] = [
        NAN_ERROR if b else None for b in bad
    ]
    _record_next_token_probs(logits, seqs, bad)
    logits = _steered(logits, seqs)

    greedy_rows = [i for i, s in enumerate(seqs) if not bad[i] and s.params.temperature <= 0.0]
    if greedy_rows:
        rows = logits if len(greedy_rows) == len(seqs) else logits[greedy_rows]
        picks = rows.argmax(dim=-1).tolist()
        for row, tok in zip(greedy_rows, picks):
            tokens[row] = tok

    for row, seq in enumerate(seqs):
        if bad[row] or seq.params.temperature <= 0.0:
            continue
        ids, probs = nucleus(logits[row], seq.params)
        if seq.generator is not None:
            probs = probs.cpu()  # seeded generators live on the CPU, whatever device the model uses
        tokens[row] = int(ids[draw(probs, seq.generator)])
    return SampleResult(tokens, errors)
