"""Sampling rules on hand-made logits (no model needed)."""

from __future__ import annotations

import random

import torch
from transformers import RepetitionPenaltyLogitsProcessor

from app.engine.api import Priority, SamplingParams
from app.engine.phrase_limit import TokenTexts, phrase_ban, repeats_a_phrase, spoken_words
from app.engine.sampling import draw, nucleus, probabilities, sample
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


PIECES = [" remove", " the", " wheel", " tread", "s", ",", " Wheel", " t", "read", "\n", " ", ".", "The", "ad", '"', "-re",
          "'m", " I", "er", " er", " re-er", " er-er", "<eos>"]


def test_the_phrase_limit_bans_exactly_the_tokens_that_make_the_guard_count_a_phrase_once_too_often():
    """Random replies over pieces that split, glue, capitalise, hyphenate and punctuate words (one writes two): a token
    is banned exactly when the reply's text with it says one phrase (the guard's words) more than the limit."""
    texts = TokenTexts(PIECES[:-1] + [""])  # the last: a special token, which writes nothing
    gen = random.Random(3)
    for limit in (1, 2, 3):
        for _ in range(14):
            reply: list[int] = []
            for _ in range(70):
                banned = phrase_ban(texts, reply, limit)
                over = [repeats_a_phrase(spoken_words(texts.text(reply + [t])), repeats=limit + 1)
                        for t in range(len(PIECES))]  # fmt: skip
                assert [t in banned for t in range(len(PIECES))] == over
                allowed = [t for t in range(len(PIECES)) if not over[t]]
                # half the time what followed the last token before, where allowed: loops form often
                earlier = [reply[i + 1] for i in range(len(reply) - 1) if reply[i] == reply[-1] and not over[reply[i + 1]]]
                reply.append(gen.choice(earlier if earlier and gen.random() < 0.5 else allowed))


def test_a_greedy_row_takes_its_likeliest_allowed_token_and_a_sampled_row_never_draws_a_banned_one():
    texts = TokenTexts(PIECES)
    said = [0, 1, 2, 3, 5, 0, 1, 2, 3, 5, 0, 1, 2]  # " remove the wheel tread," twice, then " remove the wheel"
    logits = torch.full((1, len(PIECES)), -20.0)
    logits[0, 3], logits[0, 7] = 5.0, 4.0  # " tread" a third time, else " t" (which may not go on with "read")

    def row(params: SamplingParams, prompt_len: int = 0) -> Sequence:
        seq = Sequence("r", said, params, Priority.TEXT)
        seq.prompt_len, seq.texts = prompt_len, texts
        return seq

    assert sample(logits, [row(SamplingParams())]).token_ids == [3]  # no limit
    assert sample(logits, [row(SamplingParams(phrase_repeat_limit=2))]).token_ids == [7]
    assert sample(logits, [row(SamplingParams(phrase_repeat_limit=3))]).token_ids == [3]
    assert sample(logits, [row(SamplingParams(phrase_repeat_limit=2), prompt_len=5)]).token_ids == [3]  # the prompt's
    # phrases do not count
    sampled = row(SamplingParams(phrase_repeat_limit=2, temperature=1.0, top_p=0.95))
    assert {sample(logits, [sampled]).token_ids[0] for _ in range(30)} == {7}
    said.append(7)  # " t": "read" would make it " tread"
    logits[0, 8] = 6.0
    assert sample(logits, [row(SamplingParams(phrase_repeat_limit=2))]).token_ids == [3]  # " t tread": new words


def test_a_reply_ends_where_its_likeliest_token_would_say_a_phrase_once_too_often():
    """A model whose first choice is the loop has nothing new to say: the reply ends (at its end token) instead of
    being steered on; a less likely looping token is only never drawn."""
    texts, end = TokenTexts(PIECES), PIECES.index("<eos>")
    said = [0, 1, 2, 3, 5, 0, 1, 2, 3, 5, 0, 1, 2]  # " remove the wheel tread," twice, then " remove the wheel"
    logits = torch.full((1, len(PIECES)), -20.0)
    logits[0, 3], logits[0, 7], logits[0, end] = 5.0, 4.0, -5.0  # " tread" a third time first, the end far behind

    def row(params: SamplingParams) -> Sequence:
        seq = Sequence("r", said, params, Priority.TEXT)
        seq.prompt_len, seq.texts, seq.end_ids = 0, texts, (end,)
        return seq

    assert sample(logits, [row(SamplingParams(phrase_repeat_limit=2))]).token_ids == [end]
    sampled = row(SamplingParams(phrase_repeat_limit=2, temperature=1.0, top_p=0.95, seed=3))
    assert {sample(logits, [sampled]).token_ids[0] for _ in range(30)} == {end}
    assert sample(logits, [row(SamplingParams(phrase_repeat_limit=2, ignore_eos=True))]).token_ids == [7]  # steered
    assert sample(logits, [row(SamplingParams())]).token_ids == [3]  # no limit
    outside = row(SamplingParams(phrase_repeat_limit=2))
    outside.end_ids = (len(PIECES),)  # an end token the logits do not hold: steered
    assert sample(logits, [outside]).token_ids == [7]
    logits[0, 7] = 6.0  # the loop is only the second choice: the reply goes on, and never draws it
    assert sample(logits, [row(SamplingParams(phrase_repeat_limit=2))]).token_ids == [7]
    logits[0, 3], logits[0, 7] = 4.0, 5.0  # within the nucleus, were it not banned
    sampled = row(SamplingParams(phrase_repeat_limit=2, temperature=1.0, top_p=0.99, seed=4))
    assert {sample(logits, [sampled]).token_ids[0] for _ in range(30)} == {7}


def _nucleus_by_full_sort(logits: torch.Tensor, params: SamplingParams) -> dict[int, float]:
    """The textbook filter: mask outside the top-k, softmax, sort the whole vocabulary, keep up to top_p."""
    scaled = logits / params.temperature
    if params.top_k > 0:
        scaled = scaled.masked_fill(scaled < scaled.topk(params.top_k).values[-1], float("-inf"))
    values, order = scaled.softmax(-1).sort(descending=True)
    keep = (values.cumsum(-1) - values < params.top_p) & (values > 0)
    values, order = values[keep], order[keep]
    return dict(zip(order.tolist(), (values / values.sum()).tolist()))


def test_the_nucleus_is_what_sorting_the_whole_vocabulary_keeps():
    gen = torch.Generator().manual_seed(3)
    for spread, temperature, top_k, top_p in [(8.0, 0.3, 0, 0.9), (1.0, 1.0, 0, 0.9), (3.0, 0.7, 40, 0.8),
                                              (3.0, 0.7, 40, 1.0), (0.1, 1.0, 0, 0.5)]:  # fmt: skip
        logits = torch.randn(151_936, generator=gen) * spread
        params = SamplingParams(temperature=temperature, top_k=top_k, top_p=top_p)
        ids, probs = nucleus(logits, params)
        expected = _nucleus_by_full_sort(logits, params)
        assert set(ids.tolist()) == set(expected)
        assert all(abs(p - expected[i]) < 1e-5 for i, p in zip(ids.tolist(), probs.tolist()))
        dense = probabilities(logits, params)
        assert abs(float(dense.sum()) - 1.0) < 1e-4 and int((dense > 0).sum()) == len(expected)


def test_a_draw_follows_the_distribution_and_never_picks_a_zero():
    probs = torch.zeros(151_936)
    probs[[5, 900, 151_935]] = torch.tensor([0.2, 0.5, 0.3])
    gen = torch.Generator().manual_seed(11)
    counts = torch.zeros(3)
    for _ in range(4000):
        counts[[5, 900, 151_935].index(draw(probs * 7.0, gen))] += 1  # any positive sum
    expected = torch.tensor([0.2, 0.5, 0.3]) * 4000
    assert float(((counts - expected) ** 2 / expected).sum()) < 13.82  # chi-square, 2 degrees of freedom, 99.9%
    first = [draw(probs, torch.Generator().manual_seed(5)) for _ in range(3)]
    assert len(set(first)) == 1  # a seed repeats itself


def test_the_first_token_is_text_below_the_call_floor_and_a_call_at_or_above_it():
    """``call_floor``: at the reply's first token the call openings (ids 5, 6 here) hold 0.3 of the probability, under
    a floor of 0.4: text is drawn, the likeliest opening included; under 0.25 only an opening is; after the first
    token, or with no floor, nothing changes."""
    logits = torch.log(torch.tensor([0.05, 0.4, 0.15, 0.05, 0.05, 0.2, 0.1]))

    def row(floor: float, tokens: list[int] = [1, 2, 3], temperature: float = 1.0) -> Sequence:
        seq = Sequence("r", list(tokens), SamplingParams(temperature=temperature, call_floor=floor), Priority.TEXT)
        seq.call_openings = (5, 6)
        return seq

    first = row(0.4)
    draws = {sample(logits[None], [first]).token_ids[0] for _ in range(300)}
    assert draws and not draws & {5, 6} and first.below_call_floor  # the caller may answer it without tools
    assert sample((logits + torch.tensor([0, 0, 0, 0, 0, 3.0, 0]))[None], [row(0.4, temperature=0)]).token_ids == [5]
    above = row(0.25)
    assert {sample(logits[None], [above]).token_ids[0] for _ in range(300)} == {5, 6}
    assert sample(logits[None], [row(0.25, temperature=0)]).token_ids == [5]  # greedy: the likeliest opening
    unfloored = row(0.0)
    assert {sample(logits[None], [unfloored]).token_ids[0] for _ in range(300)} - {5, 6}
    assert not above.below_call_floor and not unfloored.below_call_floor
    later = row(0.4)
    later.token_ids.append(1)  # a token of the reply already: its first token is past
    assert {5, 6} & {sample(logits[None], [later]).token_ids[0] for _ in range(300)}
