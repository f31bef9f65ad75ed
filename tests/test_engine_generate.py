"""The engine with the real packaged model (fp32) against transformers' own greedy generate."""

from __future__ import annotations

import asyncio
import threading

import pytest
import pytest_asyncio
import torch

from app.engine import Priority, SamplingParams, create_backend
from app.engine.prompt import render
from engine_helpers import PROMPTS, SYSTEM, chat, collect, hf_greedy, prompt_ids, wait_until

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def _fp32_engine(settings, prepared, kv_dtype: str):
    """The engine computing in fp32 on the CPU over the checkpoint's own 16-bit weights (quantized weights:
    test_engine_quantized.py), its KV cache in ``kv_dtype``, started."""
    update = {"llm_dtype": "float32", "llm_kv_dtype": kv_dtype, "device": "cpu", "system_prompt": SYSTEM,
              "llm_weight_bits": "16"}
    eng = create_backend(settings.model_copy(update=update), model_path=str(prepared.llm_dir))
    await eng.start()
    return eng


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def engine(settings, prepared):
    eng = await _fp32_engine(settings, prepared, "float32")  # the KV cache too: outputs must equal transformers' own
    yield eng
    await eng.stop()


async def test_greedy_output_equals_hf_generate_for_each_prompt_alone(engine, hf_model):
    for text in PROMPTS[:3]:
        ids = prompt_ids(engine, text)
        tokens, out_text, last = await collect(engine, prompt_token_ids=ids, params=SamplingParams(max_tokens=12))
        assert tokens == hf_greedy(hf_model, ids, 12)
        assert out_text == engine.tokenizer.decode(tokens, skip_special_tokens=True)
        assert last.finish_reason in ("stop", "length") and last.error is None


async def test_greedy_output_is_unchanged_while_requests_join_and_leave(engine, hf_model):
    long_ids = prompt_ids(engine, PROMPTS[0])
    short_ids = prompt_ids(engine, PROMPTS[1])
    late_ids = prompt_ids(engine, PROMPTS[3])
    progress: list[int] = []

    async def long_request():
        params = SamplingParams(max_tokens=20, ignore_eos=True)
        return await collect(engine, prompt_token_ids=long_ids, params=params, progress=progress)

    async def joiners():
        await wait_until(lambda: len(progress) >= 3)
        short = asyncio.create_task(collect(engine, prompt_token_ids=short_ids, params=SamplingParams(max_tokens=4)))
        await wait_until(lambda: len(progress) >= 6)
        late = asyncio.create_task(collect(engine, prompt_token_ids=late_ids, params=SamplingParams(max_tokens=8)))
        return await short, await late

    (long_tokens, _, _), ((short_tokens, _, _), (late_tokens, _, _)) = await asyncio.gather(long_request(), joiners())
    assert long_tokens == hf_greedy(hf_model, long_ids, 20, ignore_eos=True)
    assert engine.tokenizer.eos_token_id in long_tokens[:-1]  # it went on past EOS, as asked
    assert short_tokens == hf_greedy(hf_model, short_ids, 4)
    assert late_tokens == hf_greedy(hf_model, late_ids, 8)


async def test_cancel_frees_the_kv_cache_at_once(engine):
    baseline = engine.stats()["kv_blocks_used"]
    progress: list[int] = []
    task = asyncio.create_task(
        collect(engine, request_id="to-cancel", prompt_token_ids=prompt_ids(engine, PROMPTS[2]),
                params=SamplingParams(max_tokens=200, ignore_eos=True), progress=progress)
    )
    await wait_until(lambda: len(progress) >= 2)
    assert engine.stats()["kv_blocks_used"] > baseline
    engine.cancel("to-cancel")
    assert engine.stats()["kv_blocks_used"] == baseline
    tokens, _, last = await task
    assert last.finish_reason == "cancelled" and 2 <= len(tokens) < 200


async def test_leaving_the_stream_cancels_the_request(engine):
    baseline = engine.stats()["kv_blocks_used"]
    stream = engine.generate(prompt_token_ids=prompt_ids(engine, PROMPTS[0]),
                             params=SamplingParams(max_tokens=200, ignore_eos=True), priority=Priority.TEXT)
    async for delta in stream:
        if delta.token_ids:
            break
    await stream.aclose()
    assert engine.stats()["kv_blocks_used"] == baseline and engine.stats()["running"] == 0


async def test_prefix_reuse_gives_the_same_tokens_as_a_cold_prefill(engine, hf_model):
    first_turn = chat("Tell me something about the moon.")
    _, reply, _ = await collect(engine, messages=first_turn, session_id="s1", params=SamplingParams(max_tokens=24))
    second_turn = first_turn + [{"role": "assistant", "content": reply}, {"role": "user", "content": "And the sun?"}]
    hits_before = engine.stats()["prefix_hit_tokens"]
    tokens, _, _ = await collect(engine, messages=second_turn, session_id="s1", params=SamplingParams(max_tokens=10))
    reused = engine.stats()["prefix_hit_tokens"] - hits_before
    assert reused >= 32  # the system prompt and the first turn were not computed again
    assert tokens == hf_greedy(hf_model, render(engine.tokenizer, second_turn), 10)


async def test_the_first_request_after_a_start_finds_the_default_system_prompt_cached(settings, prepared, hf_model):
    fresh = await _fp32_engine(settings, prepared, "float32")
    try:
        question = "What is the capital of France?"
        tokens, _, _ = await collect(fresh, messages=[{"role": "user", "content": question}],  # the default system prompt
                                     params=SamplingParams(max_tokens=8))  # fmt: skip
        system = {"role": "system", "content": fresh.settings.default_instructions(tools=False)}
        assert system["content"].startswith(SYSTEM) and fresh.settings.limits_prompt in system["content"]
        warm_up = render(fresh.tokenizer, [system, {"role": "user", "content": ""}])
        asked = render(fresh.tokenizer, [system, {"role": "user", "content": question}])
        shared = next(i for i, (a, b) in enumerate(zip(warm_up, asked)) if a != b)
        block = fresh.settings.kv_block_size
        assert fresh.stats()["prefix_hit_tokens"] == shared // block * block > 0  # the warm-up's prefill, whole blocks
        assert tokens == hf_greedy(hf_model, asked, 8)
    finally:
        await fresh.stop()


async def test_a_reply_after_a_prefill_of_its_open_words_computes_only_the_rest(engine, hf_model):
    """What prefill ahead (``app/web/realtime/prefill_ahead.py``) relies on: the prompt with the user's words so far
    left open is, in tokens, the start of the reply's prompt, so the reply finds all its full blocks cached."""
    words = "Which planet is the largest one in our solar system"
    conversation = chat(words + "?")
    opened = [*conversation[:-1], {"role": "user", "content": " ".join(words.split()[:-2]), "prefix": True}]
    steps = engine.stats()["steps"]
    ahead, _, last = await collect(engine, messages=opened, params=SamplingParams(max_tokens=64, prompt_only=True))
    assert len(ahead) == 1 and last.finished  # one step: the prompt's prefill, whatever room it leaves the reply
    assert engine.stats()["steps"] == steps + 1
    hits_before = engine.stats()["prefix_hit_tokens"]
    tokens, _, _ = await collect(engine, messages=conversation, params=SamplingParams(max_tokens=10))
    reused = engine.stats()["prefix_hit_tokens"] - hits_before
    assert reused > len(render(engine.tokenizer, opened)) - engine.settings.kv_block_size, reused
    assert tokens == hf_greedy(hf_model, render(engine.tokenizer, conversation), 10)


async def test_a_prompt_longer_than_a_step_is_prefilled_in_chunks_and_decoded_exactly(engine, hf_model):
    text = " ".join(PROMPTS * 40) + " Which of these questions is the hardest?"
    ids = prompt_ids(engine, text)
    assert len(ids) > engine.settings.llm_max_step_tokens  # the first chunk samples no token
    tokens, _, last = await collect(engine, prompt_token_ids=ids, params=SamplingParams(max_tokens=6))
    assert last.error is None
    assert tokens == hf_greedy(hf_model, ids, 6)


async def test_nan_logits_fail_only_that_request(engine, hf_model, monkeypatch):
    """A fault injected into one row of a batch's logits: that request gets an error, the other goes on."""
    poison = 31337  # the faulty request's prompt ends with this token
    real_run = engine.runner.run

    def faulty_run(inputs, should_abort=None):
        logits = real_run(inputs, should_abort)
        rows = inputs.input_ids[inputs.logits_indices] == poison
        return torch.where(rows[:, None], float("nan"), logits)

    monkeypatch.setattr(engine.runner, "run", faulty_run)
    good_ids = prompt_ids(engine, PROMPTS[0])
    bad_ids = prompt_ids(engine, PROMPTS[1])[:-1] + [poison]
    good, bad = await asyncio.gather(
        collect(engine, prompt_token_ids=good_ids, params=SamplingParams(max_tokens=8)),
        collect(engine, prompt_token_ids=bad_ids, params=SamplingParams(max_tokens=8)),
    )
    assert bad[2].finish_reason == "error" and "NaN" in bad[2].error and bad[0] == []
    assert good[0] == hf_greedy(hf_model, good_ids, 8) and good[2].error is None


def hold_prompt_building(engine, monkeypatch) -> tuple[threading.Event, threading.Event, list[threading.Thread]]:
    """Make the engine's prompt building wait until the test releases it: (started, release, threads it ran on)."""
    started, release, threads = threading.Event(), threading.Event(), []
    build = engine.prompts.build

    def held(*args, **kwargs):
        threads.append(threading.current_thread())
        started.set()
        assert release.wait(30), "never released: the event loop was blocked"
        return build(*args, **kwargs)

    monkeypatch.setattr(engine.prompts, "build", held)
    return started, release, threads


async def until_set(event: threading.Event) -> None:
    while not event.is_set():
        await asyncio.sleep(0.001)


async def test_prompts_are_built_off_the_event_loop_which_stays_responsive(engine, monkeypatch):
    started, release, threads = hold_prompt_building(engine, monkeypatch)
    history = [{"role": "system", "content": SYSTEM}]
    for i in range(40):  # far past the context: most turns are dropped
        history += [{"role": "user", "content": f"Question {i}: " + "tell me more " * 300},
                    {"role": "assistant", "content": "Sure. " * 200}]
    history.append({"role": "user", "content": "Say hi."})

    async def release_once_building():  # runs only if the loop is free while the prompt is built
        await until_set(started)
        release.set()

    _, (tokens, _, last) = await asyncio.gather(
        release_once_building(), collect(engine, messages=history, params=SamplingParams(max_tokens=3)))
    assert last.error is None and tokens and last.dropped_turns > 30
    assert threads and threads[0] is not threading.current_thread()


async def test_a_request_cancelled_while_its_prompt_is_built_ends_cancelled(engine, monkeypatch):
    started, release, _ = hold_prompt_building(engine, monkeypatch)
    stream = asyncio.create_task(collect(engine, messages=chat(PROMPTS[0]), params=SamplingParams(max_tokens=8),
                                         request_id="early-cancel"))
    await until_set(started)
    engine.cancel("early-cancel")
    release.set()
    tokens, _, last = await stream
    assert tokens == [] and last.finish_reason == "cancelled"
    assert engine.stats()["running"] == engine.stats()["waiting"] == 0


async def test_a_request_id_in_use_is_refused_even_while_its_prompt_is_built(engine, monkeypatch):
    started, release, _ = hold_prompt_building(engine, monkeypatch)
    first = asyncio.create_task(collect(engine, messages=chat(PROMPTS[0]), params=SamplingParams(max_tokens=2),
                                        request_id="twice"))
    await until_set(started)
    tokens, _, last = await collect(engine, prompt_token_ids=[1, 2, 3], params=SamplingParams(max_tokens=2),
                                    request_id="twice")
    assert tokens == [] and last.finish_reason == "error" and "already in use" in last.error
    release.set()
    tokens, _, last = await first
    assert tokens and last.error is None


async def test_stats_are_flat_and_json_able(engine):
    import json

    stats = engine.stats()
    json.dumps(stats)
    assert all(not isinstance(v, (dict, list)) for v in stats.values())
    for key in ("running_voice", "waiting_text", "kv_blocks_free", "tokens_per_s", "peak_memory_bytes", "batch_limit"):
        assert key in stats
    assert b"llm_ttft_seconds" in engine.metrics_text()


async def test_steps_leave_a_core_to_each_speech_job_and_take_it_back_after(engine, hf_model):
    from app.cpu_share import speech_activity

    ids = prompt_ids(engine, PROMPTS[0])
    params = SamplingParams(max_tokens=4, ignore_eos=True)
    with speech_activity.job():
        tokens, _, _ = await collect(engine, prompt_token_ids=ids, params=params)
        assert engine.stats()["cpu_threads"] == max(1, engine._threads - 1)
    assert tokens == hf_greedy(hf_model, ids, 4, ignore_eos=True)  # the same tokens on fewer threads
    await collect(engine, prompt_token_ids=ids, params=params)
    assert engine.stats()["cpu_threads"] == engine._threads


async def test_a_voice_request_cuts_a_long_step_short_and_both_outputs_stay_exact(engine, hf_model):
    long_prompt = engine.tokenizer.encode(" ".join(f"Fact {i}: the sky is blue." for i in range(45)))
    text_ids = prompt_ids(engine, PROMPTS[2])[:1] + long_prompt + prompt_ids(engine, PROMPTS[2])[1:]
    voice_ids = prompt_ids(engine, PROMPTS[0])
    aborted = engine.stats()["aborted_steps"]
    text = asyncio.create_task(collect(engine, prompt_token_ids=text_ids, params=SamplingParams(max_tokens=3)))
    await wait_until(lambda: engine.stats()["running"] == 1)  # the long prefill is in its forward now
    voice_tokens, _, _ = await collect(engine, prompt_token_ids=voice_ids, params=SamplingParams(max_tokens=3),
                                       priority=Priority.VOICE)
    text_tokens, _, _ = await text
    assert engine.stats()["aborted_steps"] > aborted
    assert voice_tokens == hf_greedy(hf_model, voice_ids, 3)
    assert text_tokens == hf_greedy(hf_model, text_ids, 3)


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def bf16_kv_engine(settings, prepared):
    eng = await _fp32_engine(settings, prepared, "bfloat16")
    yield eng
    await eng.stop()


async def test_a_bf16_kv_cache_holds_twice_the_tokens_and_keeps_the_replies(bf16_kv_engine, engine, hf_model):
    stats = bf16_kv_engine.stats()
    assert stats["kv_dtype"] == "bfloat16" and engine.stats()["kv_dtype"] == "float32"
    assert 2 * stats["kv_bytes_per_token"] == engine.stats()["kv_bytes_per_token"]
    for text in PROMPTS:
        ids = prompt_ids(bf16_kv_engine, text)
        tokens, _, last = await collect(bf16_kv_engine, prompt_token_ids=ids, params=SamplingParams(max_tokens=8))
        # keys and values rounded to bf16 move none of the first tokens here; a near-tie later in a
        # reply may flip (measured: one of six replies of 64 tokens parted from fp32 at token 27)
        assert tokens == hf_greedy(hf_model, ids, 8)
        assert last.error is None


@pytest.mark.parametrize("priority", [Priority.VOICE, Priority.TEXT])
async def test_the_engine_says_when_a_voice_request_awaits_its_first_token_and_runs(engine, monkeypatch, priority):
    """Speech work that can wait (app.cpu_share.engine_work) waits for voice requests, not for typed ones: later clauses
    for a voice prefill, partial transcripts for voice replies; a synthesis counts them."""
    from app.cpu_share import engine_work

    steps = [(threading.Event(), threading.Event()) for _ in range(2)]  # (entered, release): the prefill, a decode
    run = engine.runner.run

    def held(inputs, abort=None):
        if steps:
            entered, release = steps.pop(0)
            entered.set()
            release.wait(10)
        return run(inputs, abort)

    monkeypatch.setattr(engine.runner, "run", held)
    (prefill_entered, prefill_release), (decode_entered, decode_release) = steps
    reply = asyncio.create_task(collect(engine, prompt_token_ids=prompt_ids(engine, PROMPTS[0]),
                                        params=SamplingParams(max_tokens=4), priority=priority))  # fmt: skip
    voice = priority == Priority.VOICE
    try:
        assert await asyncio.to_thread(prefill_entered.wait, 10)
        assert (engine_work.prefill, engine_work.replies) == (voice, voice)  # its prefill is in the step now running
        assert engine_work.voice_replies == int(voice)
        prefill_release.set()
        assert await asyncio.to_thread(decode_entered.wait, 10)
        assert (engine_work.prefill, engine_work.replies, engine_work.voice_replies) == (False, voice, int(voice))  # it decodes
    finally:
        prefill_release.set()
        decode_release.set()
    await reply
    await wait_until(lambda: not engine_work.prefill and not engine_work.replies and engine_work.voice_replies == 0)
