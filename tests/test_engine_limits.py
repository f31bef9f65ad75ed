"""A tight engine: a KV budget too small for all requests, a short context, the generic forward."""

from __future__ import annotations

import asyncio

import pytest
import pytest_asyncio

from app.engine import Priority, SamplingParams, create_backend
from app.engine.prompt import render
from engine_helpers import PROMPTS, SYSTEM, chat, collect, hf_greedy

pytestmark = pytest.mark.asyncio(loop_scope="session")

BLOCK = 16
FP32_BYTES_PER_TOKEN = 30 * 2 * 3 * 64 * 4  # SmolLM2-135M: layers x (k, v) x kv heads x head dim x fp32


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def tight(settings, prepared):
    eng = create_backend(
        settings.model_copy(
            update={
                "llm_dtype": "float32",
                "llm_kv_dtype": "float32",
                "device": "cpu",
                "system_prompt": SYSTEM,
                "kv_block_size": BLOCK,
                "kv_cache_bytes": 7 * BLOCK * FP32_BYTES_PER_TOKEN,
                "max_seq_len": 96,
                "llm_lean_forward": False,
            }
        ),
        model_path=str(prepared.llm_dir),
    )
    await eng.start()
    yield eng
    await eng.stop()


async def test_generic_forward_is_used_and_matches_hf(tight, hf_model):
    assert tight.stats()["forward"] == "generic"
    ids = render(tight.tokenizer, chat(PROMPTS[0]))
    tokens, _, _ = await collect(tight, prompt_token_ids=ids, params=SamplingParams(max_tokens=8))
    assert tokens == hf_greedy(hf_model, ids, 8)


async def test_requests_beyond_the_kv_budget_wait_instead_of_failing(tight, hf_model):
    stats = tight.stats()
    assert stats["kv_blocks_total"] == 7
    prompts = [render(tight.tokenizer, chat(p)) for p in PROMPTS]
    # each request holds 2-3 blocks; 4 of them cannot all be resident in 7
    seen = {"waiting": 0, "used": 0}
    done = asyncio.Event()

    async def watch():
        while not done.is_set():
            s = tight.stats()
            seen["waiting"] = max(seen["waiting"], s["waiting"])
            seen["used"] = max(seen["used"], s["kv_blocks_used"])
            await asyncio.sleep(0.002)

    watcher = asyncio.create_task(watch())
    results = await asyncio.gather(
        *[collect(tight, prompt_token_ids=ids, params=SamplingParams(max_tokens=6)) for ids in prompts]
    )
    done.set()
    await watcher
    assert seen["waiting"] >= 1 and seen["used"] <= 7
    for ids, (tokens, _, last) in zip(prompts, results):
        assert last.error is None
        assert tokens == hf_greedy(hf_model, ids, 6)
    assert tight.stats()["kv_blocks_used"] == 0


async def test_a_long_conversation_drops_its_oldest_turns_and_keeps_the_system_prompt(tight):
    history = [{"role": "system", "content": SYSTEM}]
    for i in range(4):
        history += [
            {"role": "user", "content": f"Question number {i}: what do you think about the weather today?"},
            {"role": "assistant", "content": f"Answer {i}: it is a lovely day with some clouds."},
        ]
    history.append({"role": "user", "content": "Say hello."})
    tokens, _, last = await collect(tight, messages=history, params=SamplingParams(max_tokens=4), priority=Priority.VOICE)
    assert last.error is None and tokens
    assert last.dropped_turns >= 1


async def test_a_prompt_that_cannot_fit_fails_with_a_clear_error(tight):
    huge = [{"role": "user", "content": "word " * 400}]
    tokens, _, last = await collect(tight, messages=huge, params=SamplingParams(max_tokens=4))
    assert tokens == [] and last.finish_reason == "error" and "tokens" in last.error
