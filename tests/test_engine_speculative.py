"""Speculative decoding: the acceptance rule on small tensors, the policy, and the engine with real packaged
models, whose greedy output with speculation must equal the plain greedy output."""

from __future__ import annotations

import asyncio

import pytest
import pytest_asyncio
import torch

from app.engine import Priority, SamplingParams, create_backend
from app.engine.draft_vocab import ShortlistHead, shortlist_ids
from app.engine.measured import RecentMedian
from app.engine.phrase_limit import repeats_a_phrase, spoken_words
from app.engine.speculative import (ForwardTimes, SpeculationPolicy, accept_greedy, accept_sampled, expected_tokens,
                                    lookup)  # fmt: skip
from app.models.prepare import ModelPreparationError, prepare_models
from engine_helpers import PROMPTS, SYSTEM, collect, prompt_ids, wait_until

# --- the acceptance rule ---------------------------------------------------------------------------


def test_greedy_rows_keep_the_agreeing_prefix_and_the_targets_next_token():
    assert accept_greedy([5, 6, 7, 8], [5, 6, 7]) == [5, 6, 7, 8]  # all accepted, plus the bonus token
    assert accept_greedy([5, 9, 7, 8], [5, 6, 7]) == [5, 9]  # the first disagreement is the target's token
    assert accept_greedy([4, 6, 7, 8], [5, 6, 7]) == [4]
    assert accept_greedy([3], []) == [3]


def _chi_square(counts: torch.Tensor, probs: torch.Tensor) -> float:
    expected = probs * counts.sum()
    return float(((counts - expected) ** 2 / expected).sum())


def test_sampled_rows_keep_the_targets_distribution():
    """Draws through the rejection rule against draws the target alone makes: chi-square per position."""
    gen = torch.Generator().manual_seed(1234)
    p = torch.tensor([[0.4, 0.3, 0.15, 0.1, 0.05], [0.05, 0.1, 0.2, 0.25, 0.4], [0.2, 0.2, 0.2, 0.2, 0.2]])
    q = torch.tensor([[0.1, 0.1, 0.5, 0.2, 0.1], [0.3, 0.3, 0.2, 0.1, 0.1]])
    first, second, third = torch.zeros(5), torch.zeros(5), torch.zeros(5)
    draws = 8000
    for _ in range(draws):
        proposals = [int(torch.multinomial(q[j], 1, generator=gen)) for j in range(2)]
        out = accept_sampled(lambda j: (torch.arange(5), p[j]), list(q), proposals, gen)
        assert 1 <= len(out) <= 3 and out[:-1] == proposals[: len(out) - 1]
        for counts, token in zip((first, second, third), out):
            counts[token] += 1
    # 99.9% quantile of chi-square with 4 degrees of freedom: 18.47
    assert _chi_square(first, p[0]) < 18.47
    assert _chi_square(second, p[1]) < 18.47
    assert _chi_square(third, p[2]) < 18.47
    # and the draft is used: most first tokens come without a rejection where q overlaps p
    assert first.sum() == draws and second.sum() > 0.4 * draws


def test_a_certain_proposal_keeps_the_targets_distribution():
    """Prompt lookup's proposals come without a draft distribution: as one certain token (q one-hot), the rule keeps
    it with the target's probability of it and otherwise draws from the target's other tokens."""
    gen = torch.Generator().manual_seed(99)
    p = torch.tensor([[0.4, 0.3, 0.15, 0.1, 0.05], [0.05, 0.1, 0.2, 0.25, 0.4]])
    first = torch.zeros(5)
    draws = 8000
    kept = 0
    for _ in range(draws):
        out = accept_sampled(lambda j: (torch.arange(5), p[j]), None, [1], gen)
        kept += len(out) == 2
        first[out[0]] += 1
    assert _chi_square(first, p[0]) < 18.47
    assert abs(kept / draws - 0.3) < 0.03


def test_a_target_nucleus_of_a_few_tokens_keeps_its_distribution():
    """The target's distribution comes as its nucleus (ids in the order of their probability, zero elsewhere)."""
    gen = torch.Generator().manual_seed(7)
    ids, probs = torch.tensor([4, 1, 2]), torch.tensor([0.5, 0.3, 0.2])
    q = torch.full((5,), 0.2)
    counts = torch.zeros(5)
    for _ in range(6000):
        proposal = int(torch.multinomial(q, 1, generator=gen))
        counts[accept_sampled(lambda j: (ids, probs), [q], [proposal], gen)[0]] += 1
    # 99.9% quantile of chi-square with 2 degrees of freedom: 13.82
    assert counts[0] == counts[3] == 0 and _chi_square(counts[ids], probs) < 13.82


def test_lookup_proposes_what_followed_the_latest_earlier_occurrence_of_the_longest_match():
    assert lookup([7, 1, 2, 3, 9, 1, 2, 4, 5, 1, 2], 3) == [4, 5, 1]  # the latest "1 2", not the first
    assert lookup([1, 2, 3, 8, 2, 3, 9, 5, 1, 2, 3], 2) == [8, 2]  # "1 2 3" outranks the later "2 3"
    assert lookup([5, 6, 7, 6], 4) == [7, 6]  # one token, and up to the end of the context
    assert lookup([1, 2, 3, 4], 3) == []  # the last token never came before
    assert lookup([4], 3) == []


def test_a_draft_equal_to_the_target_is_always_accepted():
    gen = torch.Generator().manual_seed(0)
    p = torch.tensor([[0.5, 0.5, 0.0], [0.1, 0.2, 0.7], [0.3, 0.3, 0.4]])
    for _ in range(200):
        proposals = [int(torch.multinomial(p[j], 1, generator=gen)) for j in range(2)]
        assert accept_sampled(lambda j: (torch.arange(3), p[j]), list(p[:2]), proposals, gen)[:2] == proposals


def test_the_policy_speculates_on_small_batches_and_not_on_large_ones():
    policy = SpeculationPolicy(max_k=4)
    # a CPU: the forward costs the weights' streaming (flat) until compute takes over (linear)
    for tokens in (1, 2, 4, 8, 16, 32, 64):
        policy.target.observe(tokens, max(100.0, 12.0 * tokens))
        policy.draft.observe(tokens, max(15.0, 2.0 * tokens))
    policy.acceptance = 0.8
    assert policy.choose(1) == 4
    assert policy.choose(32) == 0  # every extra token costs a full share of compute: no gain
    policy.acceptance = 0.3
    assert policy.choose(1) in (1, 2)  # a poor draft proposes less
    assert expected_tokens(1.0, 4) == 5 and abs(expected_tokens(0.5, 1) - 1.5) < 1e-9


def test_a_draft_models_acceptance_drifts_back_while_off_and_prompt_lookups_does_not():
    """A draft model is measured only while it speculates; prompt lookup on every plain step, so its low acceptance
    keeps it off for as long as it stays low."""
    for draft_model, drifts in ((True, True), (False, False)):
        policy = SpeculationPolicy(max_k=4, draft_model=draft_model)
        for tokens in (1, 2, 4, 8):
            policy.target.observe(tokens, 100.0 * tokens)  # no verify is cheap: never speculate
            if policy.draft is not None:
                policy.draft.observe(tokens, 10.0)
        policy.acceptance = 0.1
        for _ in range(50):
            assert policy.choose(1) == 0
        assert (policy.acceptance > 0.2) is drifts


def test_forward_times_interpolate_and_extrapolate():
    times = ForwardTimes()
    times.observe(2, 10.0)
    times.observe(8, 40.0)
    assert times.ms(1) == 10.0 and times.ms(5) == 25.0 and times.ms(16) == 80.0


def test_one_stalled_forward_does_not_turn_speculation_off():
    # a draft forward that stalled (38 ms against its usual 8) among the calibration's three: the median keeps 8,
    # where a mean would have priced every proposal at ~18 ms and the policy would never speculate to correct it
    policy = SpeculationPolicy(max_k=4)
    for tokens, ms in ((1, 37.5), (2, 38.1), (3, 40.2), (4, 42.6), (5, 59.1), (8, 73.1)):
        for _ in range(3):
            policy.target.observe(tokens, ms)
    for ms in (38.1, 8.3, 8.4):
        policy.draft.observe(1, ms)
    policy.acceptance = 0.68
    assert policy.draft.ms(1) == 8.4 and policy.choose(1) >= 2
    # the latest few count: a machine that got slower for good is priced as it is now
    for _ in range(RecentMedian.SIZE):
        policy.draft.observe(1, 30.0)
    assert policy.draft.ms(1) == 30.0 and policy.choose(1) == 0


# --- the engine with real models -----------------------------------------------------------------

def force_k(engine, k: int) -> None:
    """Speculate with exactly k proposals a row (0: plain steps), whatever the measured gain says."""
    engine.speculator.policy.choose = lambda rows: k


async def plain_greedy(engine, ids: list[int], max_tokens: int, ignore_eos: bool = False,
                       phrase_repeat_limit: int = 0) -> list[int]:  # fmt: skip
    """The reference: the same engine without speculation (its weights may be narrower than transformers')."""
    choose = engine.speculator.policy.choose
    force_k(engine, 0)
    try:
        params = SamplingParams(max_tokens=max_tokens, ignore_eos=ignore_eos, phrase_repeat_limit=phrase_repeat_limit)
        return (await collect(engine, prompt_token_ids=ids, params=params))[0]
    finally:
        engine.speculator.policy.choose = choose


async def _spec_engine(settings, model_dir: str, draft_dir: str, **draft):
    """fp32 compute over the checkpoints' own 16-bit weights: a row's logits do not depend on how many rows
    share its forward (the 4- and 8-bit kernels' do, slightly, which flips near-ties either way). The draft the
    same unless ``draft`` says otherwise (its proposals are only checked, so its weights may be anything)."""
    update = {"llm_dtype": "float32", "llm_kv_dtype": "float32", "device": "cpu", "system_prompt": SYSTEM,
              "llm_weight_bits": "16", "llm_draft_weight_bits": "16", "llm_draft_vocab": 0, **draft}
    eng = create_backend(settings.model_copy(update=update), model_path=model_dir, draft_path=draft_dir)
    await eng.start()
    return eng


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def spec_engine(settings, prepared):
    """SmolLM2-135M drafting for itself: every proposal should be accepted."""
    eng = await _spec_engine(settings, str(prepared.llm_dir), str(prepared.llm_dir))
    yield eng
    await eng.stop()


async def _greedy_together(engine, prompts: list[list[int]], max_tokens: list[int]) -> list[list[int]]:
    """Requests that join a running batch one after another (continuous batching), greedy."""
    progress: list[int] = []

    async def request(i: int):
        if i:
            await wait_until(lambda: len(progress) >= 3 * i)
        params = SamplingParams(max_tokens=max_tokens[i], ignore_eos=True)
        return await collect(engine, prompt_token_ids=prompts[i], params=params, progress=progress if i == 0 else None)

    return [tokens for tokens, _, _ in await asyncio.gather(*[request(i) for i in range(len(prompts))])]


@pytest.mark.asyncio(loop_scope="session")
async def test_greedy_output_with_speculation_equals_plain_greedy(spec_engine):
    eng = spec_engine
    texts = [PROMPTS[0], PROMPTS[2] + " " + PROMPTS[1] * 6, PROMPTS[3]]
    prompts = [prompt_ids(eng, t) for t in texts]
    lengths = [24, 14, 9]
    force_k(eng, 4)
    before = eng.stats()["spec_verified_rows"]
    spec = await _greedy_together(eng, prompts, lengths)
    stats = eng.stats()
    assert stats["spec_verified_rows"] > before
    assert stats["spec_acceptance"] > 0.9  # the draft is the target: it is right nearly always
    force_k(eng, 0)
    plain = await _greedy_together(eng, prompts, lengths)
    assert spec == plain
    assert spec == [await plain_greedy(eng, ids, n, ignore_eos=True) for ids, n in zip(prompts, lengths)]


@pytest.mark.asyncio(loop_scope="session")
async def test_speculation_after_plain_steps_catches_the_draft_up(spec_engine):
    eng = spec_engine
    ids = prompt_ids(eng, PROMPTS[1])
    progress: list[int] = []
    force_k(eng, 0)
    task = asyncio.create_task(collect(eng, prompt_token_ids=ids, params=SamplingParams(max_tokens=20, ignore_eos=True),
                                       progress=progress))
    await wait_until(lambda: len(progress) >= 1 and progress[-1] >= 6)
    force_k(eng, 3)  # the draft has not seen the prompt nor the first tokens: its first step runs them all
    tokens, _, _ = await task
    assert eng.stats()["spec_acceptance"] > 0.9
    assert tokens == await plain_greedy(eng, ids, 20, ignore_eos=True)


@pytest.mark.asyncio(loop_scope="session")
async def test_eos_and_stop_strings_inside_an_accepted_run_end_the_reply_there(spec_engine):
    eng = spec_engine
    force_k(eng, 4)
    ids = prompt_ids(eng, PROMPTS[0])
    tokens, text, last = await collect(eng, prompt_token_ids=ids, params=SamplingParams(max_tokens=64))
    assert last.finish_reason == "stop" and tokens[-1] in eng.scheduler.config.eos_ids
    assert tokens == await plain_greedy(eng, ids, 64)  # nothing after the end of turn
    words = text.split()
    stop = words[len(words) // 2]
    cut, stop_text, last = await collect(eng, prompt_token_ids=ids, params=SamplingParams(max_tokens=64, stop=(stop,)))
    assert last.finish_reason == "stop" and stop_text == text[: text.index(stop)]
    assert len(cut) < len(tokens)
    capped, _, last = await collect(eng, prompt_token_ids=ids, params=SamplingParams(max_tokens=7, ignore_eos=True))
    assert last.finish_reason == "length" and capped == tokens[:7]


@pytest.mark.asyncio(loop_scope="session")
async def test_cancel_during_speculation_frees_the_kv_and_the_engine_goes_on(spec_engine):
    eng = spec_engine
    force_k(eng, 4)
    baseline = eng.stats()["kv_blocks_used"]
    progress: list[int] = []
    task = asyncio.create_task(collect(eng, request_id="spec-cancel", prompt_token_ids=prompt_ids(eng, PROMPTS[2]),
                                       params=SamplingParams(max_tokens=300, ignore_eos=True), progress=progress))
    await wait_until(lambda: len(progress) >= 2)
    eng.cancel("spec-cancel")
    assert eng.stats()["kv_blocks_used"] == baseline
    tokens, _, last = await task
    assert last.finish_reason == "cancelled" and len(tokens) < 300
    ids = prompt_ids(eng, PROMPTS[3])
    after, _, _ = await collect(eng, prompt_token_ids=ids, params=SamplingParams(max_tokens=12, ignore_eos=True))
    assert after == await plain_greedy(eng, ids, 12, ignore_eos=True)


@pytest.mark.asyncio(loop_scope="session")
async def test_sampled_rows_speculate_and_keep_their_seeded_replies_repeatable(spec_engine):
    eng = spec_engine
    force_k(eng, 4)
    ids = prompt_ids(eng, PROMPTS[2])
    params = SamplingParams(temperature=0.8, top_p=0.9, repetition_penalty=1.1, max_tokens=24, seed=7, ignore_eos=True)
    before = eng.stats()["spec_verified_rows"]
    first, _, last = await collect(eng, prompt_token_ids=ids, params=params)
    second, _, _ = await collect(eng, prompt_token_ids=ids, params=params)
    assert last.error is None and len(first) == 24 and first == second
    assert eng.stats()["spec_verified_rows"] > before


@pytest.mark.asyncio(loop_scope="session")
async def test_a_verify_step_dropped_for_a_voice_request_leaves_a_seeded_reply_as_it_was(spec_engine, monkeypatch):
    eng = spec_engine
    force_k(eng, 4)
    ids = prompt_ids(eng, PROMPTS[1])
    params = SamplingParams(temperature=0.8, top_p=0.9, max_tokens=16, seed=11, ignore_eos=True)
    alone, _, _ = await collect(eng, prompt_token_ids=ids, params=params)
    layers, run, runs = len(eng.runner.lean.layers), eng.speculator.run, []

    def dropped_once(plan, target, should_abort):
        runs.append(plan)
        if len(runs) != 2:
            return run(plan, target, should_abort)
        polls = []  # the second step's draft has drawn its proposals; its verify is dropped in its last poll

        def poll() -> bool:
            polls.append(True)
            return len(polls) == (layers + 1) // 2

        return run(plan, target, poll)

    monkeypatch.setattr(eng.speculator, "run", dropped_once)
    aborted = eng.stats()["aborted_steps"]
    interrupted, _, _ = await collect(eng, prompt_token_ids=ids, params=params)
    assert eng.stats()["aborted_steps"] == aborted + 1
    assert interrupted == alone


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def lookup_engine(settings, prepared):
    """Prompt lookup proposing for SmolLM2-135M: no draft model."""
    eng = await _spec_engine(settings, str(prepared.llm_dir), None, llm_draft_model="lookup")
    yield eng
    await eng.stop()


@pytest.mark.asyncio(loop_scope="session")
async def test_prompt_lookup_speculates_where_the_context_repeats_and_keeps_the_greedy_output(lookup_engine):
    eng = lookup_engine
    assert eng.speculator.draft is None and eng.stats()["spec_draft_model"] == "lookup"
    texts = ["Repeat after me: the quick brown fox jumps over the lazy dog. The quick brown fox", PROMPTS[0], PROMPTS[3]]
    prompts = [prompt_ids(eng, t) for t in texts]
    lengths = [24, 16, 12]
    force_k(eng, 3)
    before = eng.stats()["spec_verified_rows"], eng.metrics.total_spec_accepted
    spec = await _greedy_together(eng, prompts, lengths)
    assert eng.stats()["spec_verified_rows"] > before[0] and eng.metrics.total_spec_accepted > before[1]
    assert spec == [await plain_greedy(eng, ids, n, ignore_eos=True) for ids, n in zip(prompts, lengths)]
    eng.speculator.policy.acceptance = 0.0
    await plain_greedy(eng, prompts[0], 24, ignore_eos=True)  # plain steps: lookup's proposals checked all the same
    assert eng.speculator.policy.acceptance > 0.0
    params = SamplingParams(temperature=0.8, top_p=0.9, repetition_penalty=1.1, max_tokens=20, seed=3, ignore_eos=True)
    first, _, last = await collect(eng, prompt_token_ids=prompts[0], params=params)
    second, _, _ = await collect(eng, prompt_token_ids=prompts[0], params=params)
    assert last.error is None and len(first) == 20 and first == second


@pytest.mark.asyncio(loop_scope="session")
async def test_a_reply_prefilled_beside_speculating_rows_still_reads_its_end_of_turn_probe(lookup_engine):
    """The end-of-turn score a reply reads at the user's words (semantic_vad): a verify step gives each prefill chunk
    its last logits only, so a step whose chunk holds the probe runs plain."""
    eng = lookup_engine
    force_k(eng, 3)
    progress: list[int] = []
    busy = asyncio.create_task(collect(eng, prompt_token_ids=prompt_ids(eng, "Repeat: one two three, one two three"),
                                       params=SamplingParams(max_tokens=40, ignore_eos=True), progress=progress,
                                       priority=Priority.VOICE))  # a voice row: it shares the reply's prefill step
    await wait_until(lambda: len(progress) >= 2)
    messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "What is the capital of France?"}]
    probe = SamplingParams(max_tokens=4, token_probs=(eng.tokenizer.eos_token_id,), token_probs_at="user_words_end")
    first = None
    async for delta in eng.generate(messages=messages, params=probe, priority=Priority.VOICE):
        first = first or delta
    await busy
    assert first is not None and first.token_probs is not None


async def _a_limited_loop_stays_exact(eng) -> None:
    """A prompt the model answers in a loop: with a phrase limit, speculating steps steer it off the loop exactly as
    plain steps do (the verify applies the limit at each proposal's position, the draft or lookup proposes into it)."""
    ids = prompt_ids(eng, "Repeat after me: I am happy, I am happy, I am happy, I am happy, I am happy.")

    def loops(tokens: list[int]) -> bool:
        return repeats_a_phrase(spoken_words(eng.tokenizer.decode(tokens, skip_special_tokens=True)))

    assert loops(await plain_greedy(eng, ids, 48, ignore_eos=True))
    limited = await plain_greedy(eng, ids, 48, ignore_eos=True, phrase_repeat_limit=2)
    assert not loops(limited)
    force_k(eng, 3)
    before = eng.stats()["spec_verified_rows"]
    params = SamplingParams(max_tokens=48, ignore_eos=True, phrase_repeat_limit=2)
    assert (await collect(eng, prompt_token_ids=ids, params=params))[0] == limited
    assert eng.stats()["spec_verified_rows"] > before
    sampled = SamplingParams(temperature=0.3, top_p=0.9, max_tokens=48, seed=5, ignore_eos=True, phrase_repeat_limit=2)
    first, second = [(await collect(eng, prompt_token_ids=ids, params=sampled))[0] for _ in range(2)]
    assert first == second and not loops(first)
    # a reply that may end ends where its likeliest token would loop: greedy, the same words up to there, then its end
    force_k(eng, 0)
    free = (await collect(eng, prompt_token_ids=ids, params=SamplingParams(max_tokens=48)))[0]
    ended = await plain_greedy(eng, ids, 48, phrase_repeat_limit=2)
    assert loops(free) and not loops(ended)
    assert ended[:-1] == free[: len(ended) - 1] and ended[-1] in eng.scheduler.config.eos_ids
    force_k(eng, 3)
    assert (await collect(eng, prompt_token_ids=ids, params=SamplingParams(max_tokens=48, phrase_repeat_limit=2)))[0] == ended


@pytest.mark.asyncio(loop_scope="session")
async def test_a_phrase_limit_keeps_a_draft_models_greedy_output_exact(spec_engine):
    await _a_limited_loop_stays_exact(spec_engine)


@pytest.mark.asyncio(loop_scope="session")
async def test_a_phrase_limit_keeps_prompt_lookups_greedy_output_exact(lookup_engine):
    await _a_limited_loop_stays_exact(lookup_engine)


@pytest.mark.asyncio(loop_scope="session")
async def test_stats_and_metrics_report_the_speculation(spec_engine):
    stats = spec_engine.stats()
    assert {"spec_acceptance", "spec_accepted_per_verify", "spec_tokens", "spec_draft_model"} <= stats.keys()
    text = spec_engine.metrics_text().decode()
    assert "llm_spec_accepted_tokens_total" in text and "llm_spec_proposed_tokens_total" in text


@pytest.mark.asyncio(loop_scope="session")
async def test_a_4bit_draft_over_a_shortlist_keeps_the_greedy_output(settings, prepared):
    """The default draft form: 4-bit weights, an LM head over the tokenizer's first tokens. Its proposals differ
    from the target's own more often, and some tokens it cannot propose at all; the output must not change."""
    eng = await _spec_engine(settings, str(prepared.llm_dir), str(prepared.llm_dir),
                             llm_draft_weight_bits="4", llm_draft_vocab=4096)  # fmt: skip
    try:
        head = eng.speculator.draft.lean.lm_head
        assert isinstance(head, ShortlistHead) and head.weight_format == "q4" and 4096 <= len(head.ids) < 4200
        prompts = [prompt_ids(eng, PROMPTS[0]), prompt_ids(eng, PROMPTS[2] + " " + PROMPTS[1] * 3)]
        force_k(eng, 3)
        spec = await _greedy_together(eng, prompts, [24, 16])
        stats = eng.stats()
        assert stats["spec_verified_rows"] > 0 and 0.2 < stats["spec_acceptance"] < 1.0
        assert spec == [await plain_greedy(eng, ids, n, ignore_eos=True) for ids, n in zip(prompts, [24, 16])]
    finally:
        await eng.stop()


@pytest.fixture(scope="module")
def qwen_dir(settings) -> str:
    """The packaged Qwen2.5 0.5B, prepared on first use; skipped where its packages are not installed."""
    try:
        return str(prepare_models(settings.model_copy(update={"llm_model": "qwen2.5-0.5b"})).llm_dir)
    except ModelPreparationError as error:
        pytest.skip(f"the packaged qwen2.5-0.5b is not available: {error}")


@pytest.mark.asyncio(loop_scope="session")
async def test_qwen_drafting_for_itself_keeps_the_greedy_output(settings, qwen_dir):
    eng = await _spec_engine(settings, qwen_dir, qwen_dir)
    try:
        prompts = [prompt_ids(eng, PROMPTS[0]), prompt_ids(eng, PROMPTS[3] + " " + PROMPTS[1] * 3)]
        force_k(eng, 4)
        spec = await _greedy_together(eng, prompts, [12, 8])
        assert eng.stats()["spec_acceptance"] > 0.9
        force_k(eng, 0)
        assert spec == await _greedy_together(eng, prompts, [12, 8])
        assert spec == [await plain_greedy(eng, ids, n, ignore_eos=True) for ids, n in zip(prompts, [12, 8])]
    finally:
        await eng.stop()


def test_a_failed_steps_rows_are_not_counted_as_lookup_misses():
    """After a failed step the engine runs its requests one by one as plain steps: each counts only its own row."""
    from types import SimpleNamespace

    from app.engine.scheduler import ScheduledBatch, StepOutcome
    from app.engine.sequence import Sequence
    from app.engine.speculative import Speculator

    target = SimpleNamespace(cache=SimpleNamespace(block_size=4), device=torch.device("cpu"), vocab_size=100)
    speculator = Speculator(None, target, 4, 64, 256)  # type: ignore[arg-type]
    speculator.policy.choose = lambda rows: 0
    rows = [Sequence(name, [5, 6, 7, 5, 6], SamplingParams(), Priority.VOICE) for name in ("a", "b")]  # lookup: 7
    assert speculator.plan(ScheduledBatch(decode=rows)) is None
    speculator.policy.acceptance = 0.5
    alone = ScheduledBatch(decode=rows[:1])
    speculator.observe_plain(alone, 50.0, StepOutcome(tokens={rows[0]: [7]}))  # a hit; b's row was not in this step
    assert speculator.policy.acceptance > 0.5


def test_prompt_lookup_runs_a_step_that_carries_a_prefill_plain():
    """A prompt's first token waits for its step: lookup's verify would lengthen it by every decode row's proposals."""
    from types import SimpleNamespace

    from app.engine.scheduler import ScheduledBatch
    from app.engine.sequence import Sequence
    from app.engine.speculative import Speculator

    target = SimpleNamespace(cache=SimpleNamespace(block_size=4), device=torch.device("cpu"), vocab_size=100)
    speculator = Speculator(None, target, 4, 64, 256)  # type: ignore[arg-type]
    speculator.policy.choose = lambda rows: 2
    decoding = Sequence("a", [5, 6, 7, 5, 6], SamplingParams(max_tokens=8), Priority.VOICE)  # lookup proposes 7, 5
    decoding.block_table, decoding.num_computed = [0, 1, 2], 4
    arriving = Sequence("b", [1, 2, 3], SamplingParams(), Priority.TEXT)
    plan = speculator.plan(ScheduledBatch(decode=[decoding]))
    assert plan is not None and plan.rows[0].proposals == [7, 5]
    assert speculator.plan(ScheduledBatch(decode=[decoding], prefill=[(arriving, 3)])) is None
    assert speculator.last_k == 0


def test_a_voice_request_is_planned_first():
    """The scheduler already orders rows by class; speculation keeps its order (voice rows lead the plan)."""
    from app.engine.kv_cache import BlockManager
    from app.engine.scheduler import Scheduler, SchedulerConfig
    from app.engine.sequence import Sequence

    sched = Scheduler(SchedulerConfig(8, 64, 10.0, 0.0, 256), BlockManager(64, 4))
    sched.lookahead = 4
    text = Sequence("text", list(range(100, 106)), SamplingParams(max_tokens=8), Priority.TEXT, arrival=0.0)
    voice = Sequence("voice", list(range(200, 206)), SamplingParams(max_tokens=8), Priority.VOICE, arrival=0.1)
    for s in (text, voice):
        sched.add(s)
    for now in (0.2, 0.3):
        batch = sched.schedule(now)
        for s in batch.decode:
            s.num_computed += 1
            s.token_ids.append(1)
        for s, n in batch.prefill:
            s.num_computed += n
            s.token_ids.append(1)
    batch = sched.schedule(0.4)
    assert [s.request_id for s in batch.decode] == ["voice", "text"]
    # each decode row holds room for its token and the lookahead, taken from free blocks
    assert all(len(s.block_table) * 4 - s.num_computed >= 5 for s in batch.decode)


@pytest.mark.asyncio(loop_scope="session")
async def test_the_benchmark_compares_both_modes_in_one_run(settings, prepared):
    import argparse

    from app.bench.speculative import _measure

    args = argparse.Namespace(tokens=6, batches="1,2", repeats=1, force_k=3)
    # the draft is the target in the same form (its own default packs it at 4 bits, which agrees with the 16-bit
    # target on most tokens but by how many depends on the prompt)
    update = {"device": "cpu", "llm_dtype": "float32", "llm_weight_bits": "16", "llm_draft_weight_bits": "16"}
    results = await _measure(settings.model_copy(update=update), str(prepared.llm_dir), str(prepared.llm_dir), args)
    for b in (1, 2):
        assert results[f"greedy_identical_b{b}"] is True
        assert results[f"decode_tps_off_b{b}"] > 0 and results[f"decode_tps_on_b{b}"] > 0
        assert results[f"acceptance_b{b}"] > 0.9 and results[f"mean_k_b{b}"] == 3
    # the forward times the policy chose from: the target's verify of 4 tokens a row among them, each a number
    target_times = dict(pair.split(": ") for pair in results["target_forward_ms_by_tokens"].split(", "))
    assert "4" in target_times and all(float(ms) > 0 for ms in target_times.values())
    assert results["draft_forward_ms_by_tokens"].startswith("1: ")
    lookup_settings = settings.model_copy(update={**update, "llm_draft_model": "lookup"})
    results = await _measure(lookup_settings, str(prepared.llm_dir), None, args)
    assert results["draft_model"] == "lookup" and "draft_forward_ms_by_tokens" not in results
    assert results["greedy_identical_b1"] is True and results["mean_k_b1"] == 3


def test_the_draft_setting_pairs_the_packaged_qwen_models_and_prepare_returns_it(settings, tmp_path):
    from app.config import Settings

    base = {"model_dir": settings.model_dir, "data_dir": tmp_path}
    on_cpu = Settings(**base, llm_model="qwen2.5-1.5b", device="cpu")  # a draft model measured no faster there
    assert on_cpu.draft_model == "lookup" and on_cpu.draft_llm is None
    assert Settings(**base, llm_model="qwen2.5-1.5b", llm_draft_model="qwen2.5-0.5b").draft_model == "qwen2.5-0.5b"
    assert Settings(**base, llm_model="qwen2.5-1.5b", device="cuda").draft_model == "qwen2.5-0.5b"
    assert Settings(**base, llm_model="qwen2.5-1.5b", llm_draft_model="none").draft_model is None
    assert Settings(**base, llm_model="qwen2.5-1.5b", llm_speculative_tokens=0).draft_model is None
    assert Settings(**base, llm_model="smollm2-135m", device="cuda").draft_model is None
    assert Settings(**base, llm_model="smollm2-135m", device="cpu", llm_speculative_tokens=0).draft_model is None
    looked_up = Settings(**base, llm_model="smollm2-135m", llm_draft_model="lookup")
    assert looked_up.draft_model == "lookup" and looked_up.draft_llm is None
    assert prepare_models(looked_up).draft_llm_dir is None  # no model to prepare
    folder = tmp_path / "my-draft"
    folder.mkdir()
    chosen = Settings(**base, llm_model="smollm2-135m", llm_draft_model=str(folder))
    assert prepare_models(chosen).draft_llm_dir == folder


# --- the draft's shortlist -------------------------------------------------------------------------


def test_the_shortlist_is_the_first_ids_and_the_special_ones_in_whole_blocks():
    assert shortlist_ids(1000, 40, [997]) == [*range(48), *range(992, 1000)]
    assert shortlist_ids(1000, 5000, []) == list(range(1000))


@pytest.mark.parametrize("bits", [4, 16])
def test_the_shortlist_head_gives_the_full_heads_logits_on_its_tokens_and_none_elsewhere(bits):
    from app.kernels.linear import Linear

    torch.manual_seed(0)
    weight = torch.randn(1000, 64)
    if bits == 4:
        head = Linear(weight, bits=4, compute_dtype=torch.float32)
        assert head.quantized is not None
    else:  # a GPU's head keeps a plain weight (F.linear): the same form here, without the CPU's prepacking
        head = Linear(weight)
        head.weight, head.packed, head.kernel = weight, None, None
    ids = shortlist_ids(1000, 100, [998])
    shortlist = ShortlistHead(head, ids)
    x = torch.randn(3, 64)
    full, short = head(x), shortlist(x)
    outside = torch.ones(1000, dtype=torch.bool)
    outside[ids] = False
    assert torch.allclose(short[:, ids], full[:, ids], atol=1e-5)
    assert torch.isneginf(short[:, outside]).all()
    assert shortlist.weight_bytes < head.weight_bytes / 5


def test_prompt_lookup_starts_from_its_own_measured_acceptance():
    """Before any reply is measured, lookup's policy assumes the acceptance its proposals have on the quality set's
    replies, not a draft model's: one user's steps speculate, four users' do not (a verify of 4 x (k+1) rows there
    costs what the few tokens it wins do not pay back)."""
    policy = SpeculationPolicy(max_k=4, draft_model=False)
    for tokens, ms in ((1, 75.0), (2, 77.0), (4, 85.0), (8, 110.0), (16, 150.0)):  # a CPU's forwards, memory-bound at first
        policy.target.observe(tokens, ms)
    assert policy.acceptance == SpeculationPolicy.LOOKUP_PRIOR < SpeculationPolicy.PRIOR
    assert policy.choose(1) >= 1
    assert policy.choose(4) == 0
