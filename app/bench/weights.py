"""``voicechat bench weights``: the same model with its weights at 4/8 bits against 16 bits, one run.

For each weight setting (``llm_weight_bits``) one engine is loaded in turn and decodes greedy batches
of 1 and 8 requests (EOS ignored); the settings alternate per repeat, so a busy machine's load falls
on all alike, and each setting's best run is reported. Also: the bytes each streams per decode step,
a cold prefill's time, and how many greedy tokens of the batch-1 output agree with the 16-bit run's.
On a CPU with AMX, the 4/8-bit engine also prefills cold prompts of several lengths with its kernels'
AMX tiles and without (the same linears, the library built without AMX), alternating in the same process.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import statistics
import time
from pathlib import Path
from typing import Any

from app.bench.engine import seed_prompts
from app.bench.report import report
from app.bench.speculative import decode_batch
from app.config import Settings
from app.engine import Priority, SamplingParams, create_backend


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--bits", default="auto,16", help="llm_weight_bits settings, comma-separated [auto,16]")
    parser.add_argument("--tokens", type=int, default=48, help="new tokens per request [48]")
    parser.add_argument("--batches", default="1,8", help="batch sizes, comma-separated [1,8]")
    parser.add_argument("--repeats", type=int, default=2, help="runs per setting and batch size [2]")
    parser.add_argument("--tile-prefills", default="64,128,512",
                        help="on a CPU with AMX: cold prefill lengths timed with the kernels' tiles and without [64,128,512]")


async def _prefill_s(engine, prompt: list[int]) -> float:
    started = time.perf_counter()
    async for delta in engine.generate(prompt_token_ids=prompt, params=SamplingParams(max_tokens=1),
                                       priority=Priority.TEXT):
        if delta.error:
            raise RuntimeError(delta.error)
    return time.perf_counter() - started


def _cold_prompt(tokenizer, first_token: int, length: int) -> list[int]:
    """``length`` tokens whose first, ``first_token``, no other prompt of the run starts with: the prefix cache holds
    none of it."""
    words = "a voice reply starts once the prompt is prefilled and its first clause is decoded".split()
    return [first_token] + tokenizer.encode(" ".join(words[i % len(words)] for i in range(length)))[: length - 1]


async def _tile_prefills(engine, lengths: list[int], repeats: int, results: dict[str, Any]) -> None:
    """Cold prefills with the kernels' AMX tiles and without, alternating; medians and their ratio per length."""
    from app.kernels import cpu_kernels

    lean = getattr(getattr(engine, "runner", None), "lean", None)
    quantized = [linear for linear in (lean.linears() if lean else []) if linear.quantized is not None]
    tiles = cpu_kernels.load()
    if not quantized or tiles is None or not tiles.tile_min_rows:
        return
    without = cpu_kernels.build(cpu_kernels.without_amx(cpu_kernels.compiler_flags()))
    if without is None:
        return
    times: dict[tuple[str, int], list[float]] = {}
    hits = engine.stats()["prefix_hit_tokens"]
    first_token = 1000  # each prompt starts with a token of its own
    try:
        for _ in range(repeats):
            for name, library in (("tiles", tiles), ("no_tiles", without)):
                for linear in quantized:
                    linear.kernel = library
                for length in lengths:
                    first_token += 1
                    prompt = _cold_prompt(engine.tokenizer, first_token, length)
                    times.setdefault((name, length), []).append(await _prefill_s(engine, prompt))
    finally:
        for linear in quantized:
            linear.kernel = tiles
    results["prefill_tiles_cached_tokens"] = engine.stats()["prefix_hit_tokens"] - hits
    for length in lengths:
        with_tiles, without_tiles = (statistics.median(times[name, length]) for name in ("tiles", "no_tiles"))
        results[f"prefill_{length}_tiles_s"] = with_tiles
        results[f"prefill_{length}_no_tiles_s"] = without_tiles
        results[f"prefill_{length}_tiles_speedup"] = without_tiles / with_tiles


async def _one_setting(settings: Settings, llm_dir: str, bits: str, batches: list[int], tokens: int,
                       results: dict[str, Any], outputs: dict[str, list[int]], tile_prefills: list[int]) -> None:
    engine = create_backend(settings.model_copy(update={"llm_weight_bits": bits, "max_batch": max(batches)}),
                            model_path=llm_dir)
    await engine.start()
    try:
        prompts = seed_prompts(engine.tokenizer, settings, max(batches))
        await decode_batch(engine, prompts[:1], 4)  # warm-up
        stats = engine.stats()
        results[f"weights_{bits}_format"] = stats["weight_format"]
        results[f"weights_{bits}_mib_per_step"] = stats["weight_bytes"] / 2**20
        # a system prompt of its own, so that the prefix cache holds none of it (the others share theirs)
        cold = seed_prompts(engine.tokenizer, settings.model_copy(update={"system_prompt": f"Prefill. {settings.system_prompt}"}),
                            1)[0]  # fmt: skip
        hits = stats["prefix_hit_tokens"]
        prefill = await _prefill_s(engine, cold)
        results[f"prefill_{bits}_cached_tokens"] = engine.stats()["prefix_hit_tokens"] - hits
        results[f"prefill_{bits}_s"] = min(prefill, results.get(f"prefill_{bits}_s", prefill))
        results[f"prefill_{bits}_tokens"] = len(cold)
        for b in batches:
            rate, out = await decode_batch(engine, prompts[:b], tokens)
            key = f"decode_tps_{bits}_b{b}"
            results[key] = max(rate, results.get(key, 0.0))
            if b == 1:
                outputs[bits] = out[0]
        if tile_prefills and bits != "16" and f"prefill_{tile_prefills[0]}_tiles_s" not in results:
            await _tile_prefills(engine, tile_prefills, 3, results)
    finally:
        await engine.stop()
        gc.collect()


def run(args: argparse.Namespace, settings: Settings) -> dict[str, Any]:
    from app.models.prepare import prepare_models

    settings = settings.model_copy(update={"llm_backend": "local", "llm_draft_model": "none"})
    llm_dir = str(prepare_models(settings).llm_dir)
    settings_list = [b.strip() for b in args.bits.split(",")]
    batches = [int(b) for b in args.batches.split(",")]
    results: dict[str, Any] = {"model": Path(llm_dir).name, "new_tokens": args.tokens, "repeats": args.repeats}
    outputs: dict[str, list[int]] = {}
    tile_prefills = [int(n) for n in args.tile_prefills.split(",") if n.strip()]
    for _ in range(args.repeats):
        for bits in settings_list:
            asyncio.run(_one_setting(settings, llm_dir, bits, batches, args.tokens, results, outputs, tile_prefills))
    reference = settings_list[-1]
    for bits in settings_list[:-1]:
        for b in batches:
            results[f"decode_speedup_{bits}_vs_{reference}_b{b}"] = (
                results[f"decode_tps_{bits}_b{b}"] / results[f"decode_tps_{reference}_b{b}"])
        results[f"prefill_speedup_{bits}_vs_{reference}"] = results[f"prefill_{reference}_s"] / results[f"prefill_{bits}_s"]
        same = 0
        for mine, theirs in zip(outputs[bits], outputs[reference]):
            if mine != theirs:
                break
            same += 1
        results[f"greedy_prefix_agreeing_{bits}_vs_{reference}"] = same
    return report("LLM weights benchmark", results, args.json_path)
