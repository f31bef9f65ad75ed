"""Sampling rules on hand-made logits (no model needed)."""

from __future__ import annotations

import torch
from transformers import RepetitionPenaltyLogitsProcessor

from app.engine.api import Priority, SamplingParams
from app.engine.sampling import sample
from app.engine.sequence import Sequence


def seqs(*params: SamplingParams, tokens: list[int] | None = None) -> list[Sequence]:
    return [Sequence(f"r{i}", list(tokens or [1, 2, 3]), p, Priority.TEXT) for i, p in enumerate(params)]


def test_a_nan_row_fails_only_its_own_request():
    logits = torch.randn(3, 50)
    logits[1, 7] = float("nan")
    logits[2, 3] = float("inf")
    result = sample(logits, seqs(SamplingParams(), SamplingParams(), SamplingParams(temperature=0.8)))
    assert result.token_ids[0] == int(logits[0].argmax())
    assert result.token_ids[1] is None and result.token_ids[2] is None
    assert result.errors[0] is None and "NaN" in result.errors[1] and result.errors[2]


def test_top_k_one_is_greedy_and_a_seed_repeats_itself():
    logits = torch.randn(1, 500)
    assert sample(logits, seqs(SamplingParams(temperature=1.5, top_k=1))).token_ids == [int(logits.argmax())]
    draws = [sample(logits, seqs(SamplingParams(temperature=1.0, seed=7))).token_ids for _ in range(2)]
    assert draws[0] == draws[1]
    many = {sample(logits, seqs(SamplingParams(temperature=1.0))).token_ids[0] for _ in range(20)}
    assert len(many) > 1


def test_top_p_keeps_only_the_nucleus():
    logits = torch.full((1, 10), -10.0)
    logits[0, 4] = 5.0  # ~99.9 % of the mass
    logits[0, 6] = -1.0
    picks = {sample(logits, seqs(SamplingParams(temperature=1.0, top_p=0.5))).token_ids[0] for _ in range(30)}
    assert picks == {4}


def test_repetition_penalty_matches_transformers():
    logits = torch.randn(1, 40)
    history = [3, 5, 5, 9, 20]
    expected = RepetitionPenaltyLogitsProcessor(1.3)(torch.tensor([history]), logits.clone()).argmax().item()
    got = sample(logits, seqs(SamplingParams(repetition_penalty=1.3), tokens=history)).token_ids[0]
    assert got == expected
    strong = sample(logits, seqs(SamplingParams(repetition_penalty=1e6), tokens=[int(logits.argmax())])).token_ids[0]
    assert strong != int(logits.argmax())
