"""``voicechat bench engine``: the engine against plain transformers, side by side in one run.

Sections (flat JSON keys in brackets):
- seed workload: N concurrent requests x exactly 20 new tokens, EOS ignored, greedy. Serial HF
  ``generate`` [qps_serial], padded HF batches of 4 and 8 [qps_fixed_4, qps_fixed_8], transformers'
  continuous batching [qps_hf_cb], the engine at max batch 8 [qps_engine_8] and adaptive [qps_engine].
- priority: VOICE time to first token alone and under a TEXT flood [voice_ttft_p95_idle_s, _flood_s].
- prefix reuse: first-token time of a new turn after a ~1000-token history, same session vs a cold one.
- decode efficiency: tokens/s at batch 8 against the roofline limit from measured bandwidth and peak.
- memory: KV bytes per token, peak RSS, and RSS at batch 1/8 and short/long contexts.

On a CPU shared with other work, compare with ``--threads 1``: with two threads each small op's
parallel region waits for a descheduled thread, which slows op-heavy forwards (HF ``generate``)
many times more than lean ones and inflates the engine's ratios.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import os
import statistics
import threading
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import torch

from app.bench import hf_baselines, roofline
from app.bench.report import report
from app.config import Settings
from app.device import cpu_has_fast_bf16, on_own_thread, use_torch_threads
from app.engine import Priority, SamplingParams, create_backend
from app.percentile import percentile

log = logging.getLogger(__name__)

NEW_TOKENS = 20  # the seed article's workload
TOPICS = [
    "the moon", "volcanoes", "honey bees", "the Roman empire", "jazz music", "glaciers", "octopuses",
    "the printing press", "coffee", "rainbows", "chess", "the Sahara desert", "penguins", "electric cars",
    "the human heart", "tea ceremonies", "black holes", "bicycles", "the Amazon river", "origami",
    "thunderstorms", "the piano", "coral reefs", "the internet", "sourdough bread", "wolves",
    "the Eiffel Tower", "solar panels", "dinosaurs", "the violin", "hot air balloons", "lighthouses",
]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--quick", action="store_true",
                        help="fewer requests and repeats (all keys still reported); finishes in a few minutes on a CPU")
    parser.add_argument("--requests", type=int, default=32, help="concurrent requests of the seed workload [32]")
    parser.add_argument("--threads", type=int, default=0,
                        help="torch CPU threads for every contender [0: one per core]; on a busy shared CPU one "
                             "thread avoids spin-wait stalls that slow a 2-thread forward many times over")


@dataclass(frozen=True)
class Plan:
    """How much of each section to run; --quick trims repeats, never whole sections."""

    requests: int
    serial_requests: int
    fixed_requests: int
    voice_requests: int
    voice_interval_s: float
    flood_concurrency: int
    prefix_repeats: int
    decode_tokens: int
    long_context: int

    @classmethod
    def of(cls, quick: bool, requests: int) -> Plan:
        if quick:
            return cls(requests, serial_requests=3, fixed_requests=min(requests, 16), voice_requests=6,
                       voice_interval_s=0.4, flood_concurrency=16, prefix_repeats=2, decode_tokens=32,
                       long_context=256)
        return cls(requests, serial_requests=requests, fixed_requests=requests, voice_requests=16,
                   voice_interval_s=0.5, flood_concurrency=32, prefix_repeats=5, decode_tokens=128,
                   long_context=768)


# --- helpers -------------------------------------------------------------------------------------


def _rss_bytes() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


class PeakMemory:
    """Peak resident memory (and CUDA allocation) while a block runs, sampled every 20 ms."""

    def __init__(self, device: torch.device) -> None:
        self.device = device
        self.peak_rss = 0
        self.peak_cuda = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        while not self._stop.wait(0.02):
            self.peak_rss = max(self.peak_rss, _rss_bytes())

    def __enter__(self) -> PeakMemory:
        self.peak_rss = _rss_bytes()
        if self.device.type == "cuda":
            torch.cuda.reset_peak_memory_stats(self.device)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self.peak_rss = max(self.peak_rss, _rss_bytes())
        if self.device.type == "cuda":
            self.peak_cuda = torch.cuda.max_memory_allocated(self.device)


def _chat_ids(tokenizer, messages: list[dict]) -> list[int]:
    return list(tokenizer.apply_chat_template(messages, add_generation_prompt=True, return_dict=True)["input_ids"])


def seed_prompts(tokenizer, settings: Settings, count: int) -> list[list[int]]:
    """Short voice-style questions (about 40 tokens with the system prompt), all different."""
    return [
        _chat_ids(tokenizer, [{"role": "system", "content": settings.system_prompt},
                              {"role": "user", "content": f"Tell me something interesting about {TOPICS[i % len(TOPICS)]}."
                               + (f" (question {i})" if i >= len(TOPICS) else "")}])
        for i in range(count)
    ]


def long_history(settings: Settings, tag: str, turns: int) -> list[dict]:
    """A conversation of ``turns`` exchanges (~95 tokens each); ``tag`` makes its token prefix unique."""
    messages = [{"role": "system", "content": f"Conversation {tag}. {settings.system_prompt}"}]
    for turn in range(turns):
        topic = TOPICS[turn % len(TOPICS)]
        messages.append({"role": "user", "content": f"What should I know about {topic}? Keep it short."})
        messages.append({"role": "assistant", "content": (
            f"Here is a short summary about {topic}. People have studied {topic} for a long time, and there "
            f"are many surprising facts about it. The most important idea is that {topic} connects to many other "
            f"subjects, from science to history and art. If you want to learn more about {topic}, a good library "
            f"book or a museum visit is a fine place to start, and asking questions helps a lot.")})
    messages.append({"role": "user", "content": "Thanks. Which of these topics was the first one?"})
    return messages


# --- the engine side ------------------------------------------------------------------------------


async def _stream(engine, *, params, priority, prompt_token_ids=None, messages=None, session_id=None,
                  request_id=None) -> tuple[float, list[float], str]:
    """Run one request; returns (start time, arrival time of every token, reply text)."""
    start = time.perf_counter()
    stamps: list[float] = []
    text = []
    async for delta in engine.generate(prompt_token_ids=prompt_token_ids, messages=messages, params=params,
                                       priority=priority, session_id=session_id, request_id=request_id):
        if delta.error:
            raise RuntimeError(f"engine request failed: {delta.error}")
        now = time.perf_counter()
        stamps.extend([now] * len(delta.token_ids))
        text.append(delta.text)
    return start, stamps, "".join(text)


async def engine_qps(engine, prompts: list[list[int]], new_tokens: int) -> float:
    """All requests submitted at once; requests per second until the last one finishes."""
    params = SamplingParams(max_tokens=new_tokens, ignore_eos=True)
    start = time.perf_counter()
    runs = await asyncio.gather(*[_stream(engine, params=params, priority=Priority.TEXT, prompt_token_ids=p)
                                  for p in prompts])
    elapsed = time.perf_counter() - start
    counts = {len(stamps) for _, stamps, _ in runs}
    if counts != {new_tokens}:
        raise RuntimeError(f"engine produced {counts} tokens per request, expected exactly {new_tokens}")
    return len(prompts) / elapsed


async def decode_rate(engine, prompts: list[list[int]], new_tokens: int) -> tuple[float, float]:
    """Tokens/s while every request decodes at once (after the last first token, before the first finish).

    Returns (tokens per second, mean context length in that window).
    """
    params = SamplingParams(max_tokens=new_tokens, ignore_eos=True)
    runs = await asyncio.gather(*[_stream(engine, params=params, priority=Priority.TEXT, prompt_token_ids=p)
                                  for p in prompts])
    window_start = max(stamps[0] for _, stamps, _ in runs)
    window_end = min(stamps[-1] for _, stamps, _ in runs)
    tokens = sum(1 for _, stamps, _ in runs for t in stamps if window_start < t <= window_end)
    if window_end <= window_start or tokens == 0:
        raise RuntimeError("decode window is empty: requests did not decode together")
    generated_mid = statistics.mean(
        (sum(1 for t in stamps if t <= window_start) + sum(1 for t in stamps if t <= window_end)) / 2
        for _, stamps, _ in runs)
    context = statistics.mean(len(p) for p in prompts) + generated_mid
    return tokens / (window_end - window_start), context


VOICE_TIMEOUT_S = 60.0  # a voice request still without a token by then counts as this (and as a timeout)


async def voice_ttfts(engine, prompts: list[list[int]], interval_s: float) -> list[float]:
    """VOICE requests one at a time, ``interval_s`` apart: time to their first token."""
    params = SamplingParams(max_tokens=4, ignore_eos=True)
    ttfts = []
    for index, prompt in enumerate(prompts):
        request_id = f"voice-{time.monotonic_ns()}-{index}"
        start = time.perf_counter()
        stream = engine.generate(prompt_token_ids=prompt, params=params, priority=Priority.VOICE, request_id=request_id)
        try:
            while not (delta := await asyncio.wait_for(anext(stream), VOICE_TIMEOUT_S)).token_ids:
                if delta.finished:
                    raise RuntimeError(f"voice request ended without a token: {delta.error or delta.finish_reason}")
            ttfts.append(time.perf_counter() - start)
        except TimeoutError:
            log.warning("a VOICE request got no token within %.0f s", VOICE_TIMEOUT_S)
            ttfts.append(VOICE_TIMEOUT_S)
        finally:
            engine.cancel(request_id)
            await stream.aclose()
        await asyncio.sleep(interval_s)
    return ttfts


async def voice_ttfts_under_flood(engine, voice: list[list[int]], text: list[list[int]], concurrency: int,
                                  interval_s: float) -> tuple[list[float], float]:
    """The same VOICE requests while ``concurrency`` TEXT requests keep the engine full.

    Returns the VOICE first-token times and the TEXT tokens/s the flood got meanwhile.
    """
    flood_params = SamplingParams(max_tokens=64, ignore_eos=True)
    stop = asyncio.Event()
    flood_tokens = 0
    live: set[str] = set()

    async def text_user(user: int) -> None:
        nonlocal flood_tokens
        turn = 0
        while not stop.is_set():
            request_id = f"flood-{user}-{turn}"
            live.add(request_id)
            try:
                async for delta in engine.generate(prompt_token_ids=text[(user + turn) % len(text)], params=flood_params,
                                                   priority=Priority.TEXT, request_id=request_id):
                    flood_tokens += len(delta.token_ids)
            finally:
                live.discard(request_id)
            turn += 1

    users = [asyncio.create_task(text_user(u)) for u in range(concurrency)]
    await asyncio.sleep(1.0)  # let the flood fill the batch and the queue
    started = time.perf_counter()
    tokens_before = flood_tokens
    ttfts = await voice_ttfts(engine, voice, interval_s)
    flood_rate = (flood_tokens - tokens_before) / (time.perf_counter() - started)
    stop.set()
    for request_id in list(live):
        engine.cancel(request_id)
    await asyncio.gather(*users)
    return ttfts, flood_rate


async def prefix_ttfts(engine, settings: Settings, repeats: int, history_turns: int) -> tuple[list[float], list[float]]:
    """First-token time of turn 2 after a long turn 1: in the same session (reuse) and in a fresh one (cold)."""
    params = SamplingParams(max_tokens=4, ignore_eos=True)
    reuse, cold = [], []
    for repeat in range(repeats):
        history = long_history(settings, f"reuse-{repeat}", history_turns)
        session = f"bench-reuse-{repeat}"
        _, _, reply = await _stream(engine, params=params, priority=Priority.VOICE, messages=history, session_id=session)
        follow_up = [{"role": "assistant", "content": reply}, {"role": "user", "content": "Tell me more about it."}]
        start, stamps, _ = await _stream(engine, params=params, priority=Priority.VOICE, messages=history + follow_up,
                                         session_id=session)
        reuse.append(stamps[0] - start)
        fresh = long_history(settings, f"cold-{repeat}", history_turns)
        start, stamps, _ = await _stream(engine, params=params, priority=Priority.VOICE, messages=fresh + follow_up,
                                         session_id=f"bench-cold-{repeat}")
        cold.append(stamps[0] - start)
    return reuse, cold


async def _warm(engine, prompts: list[list[int]]) -> None:
    """Untimed pass over the same shapes so that one-off costs (compilation, allocation) are not counted."""
    await engine_qps(engine, prompts, 2)


# --- the command ----------------------------------------------------------------------------------


def _hf_section(llm_dir, prompts, plan: Plan, device, dtype, tokenizer, results: dict[str, Any]):
    """Load the model once with plain transformers and run every baseline on it; returns the model shape."""
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained(llm_dir, dtype=dtype).to(device).eval()
    shape = roofline.ModelShape.of(model)
    pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else tokenizer.eos_token_id
    log.info("HF serial generate on %d requests", plan.serial_requests)
    results["qps_serial"] = hf_baselines.qps_serial(model, prompts[:plan.serial_requests], NEW_TOKENS, pad)
    for batch in (4, 8):
        log.info("HF padded batches of %d on %d requests", batch, plan.fixed_requests)
        results[f"qps_fixed_{batch}"] = hf_baselines.qps_fixed(model, prompts[:plan.fixed_requests], NEW_TOKENS, pad, batch)
    log.info("HF generate_batch on %d requests", plan.fixed_requests)
    results["qps_hf_cb"] = hf_baselines.qps_hf_continuous(model, prompts[:plan.fixed_requests], NEW_TOKENS, pad, 8)
    del model
    gc.collect()
    return shape


async def _engine_section(settings: Settings, llm_dir: str, tokenizer, prompts, plan: Plan, device,
                          results: dict[str, Any], memory: dict[str, Any]) -> None:
    log.info("engine at max batch 8")
    engine = create_backend(settings.model_copy(update={"max_batch": 8}), model_path=llm_dir)
    await engine.start()
    try:
        await _warm(engine, prompts)
        results["qps_engine_8"] = await engine_qps(engine, prompts, NEW_TOKENS)
        with PeakMemory(device) as single:
            results["decode_tps_1"], _ = await decode_rate(engine, prompts[:1], plan.decode_tokens)
        with PeakMemory(device) as eight:
            results["decode_tps_8"], results["decode_context_8"] = await decode_rate(engine, prompts[:8], plan.decode_tokens)
        long_prompts = [_long_prompt(tokenizer, settings, i, plan.long_context) for i in range(8)]
        # their prompts cached first, as the short ones are: prefilled in the timed run, one a step, the first rows
        # would finish before the last began, and the window would hold a step or two of prefills
        await engine_qps(engine, long_prompts, 1)
        with PeakMemory(device) as eight_long:
            results["decode_tps_8_long"], results["decode_context_8_long"] = await decode_rate(
                engine, long_prompts, plan.decode_tokens // 2)
        memory["context_short_tokens"] = round(statistics.mean(len(p) for p in prompts[:8])) + plan.decode_tokens
        memory["context_long_tokens"] = plan.long_context + plan.decode_tokens // 2
        for name, peak in (("b1_short", single), ("b8_short", eight), ("b8_long", eight_long)):
            memory[f"rss_mb_{name}"] = peak.peak_rss / 2**20
            if device.type == "cuda":
                memory[f"cuda_mb_{name}"] = peak.peak_cuda / 2**20
    finally:
        await engine.stop()
    del engine
    gc.collect()

    log.info("engine with its adaptive batch limit (max %d)", settings.max_batch)
    engine = create_backend(settings, model_path=llm_dir)
    await engine.start()
    try:
        await _warm(engine, prompts)
        results["qps_engine"] = await engine_qps(engine, prompts, NEW_TOKENS)
        voice = prompts[:plan.voice_requests]
        await voice_ttfts(engine, voice[:1], 0)
        idle = await voice_ttfts(engine, voice, plan.voice_interval_s)
        flood, flood_rate = await voice_ttfts_under_flood(engine, voice, prompts, plan.flood_concurrency,
                                                          plan.voice_interval_s)
        results["voice_ttft_p95_idle_s"] = percentile(idle, 95)
        results["voice_ttft_p95_flood_s"] = percentile(flood, 95)
        results["voice_ttft_p50_idle_s"] = statistics.median(idle)
        results["voice_ttft_p50_flood_s"] = statistics.median(flood)
        results["voice_timeouts_flood"] = sum(t >= VOICE_TIMEOUT_S for t in flood)
        results["flood_text_tokens_per_s"] = flood_rate
        turns = 10
        results["prefix_history_tokens"] = len(_chat_ids(tokenizer, long_history(settings, "cold-0", turns)))
        reuse, cold = await prefix_ttfts(engine, settings, plan.prefix_repeats, turns)
        results["ttft_prefix_reuse_s"] = statistics.median(reuse)
        results["ttft_prefix_cold_s"] = statistics.median(cold)
        stats = engine.stats()
        for key in ("forward", "weight_format", "weight_bytes", "kv_dtype", "kv_bytes_per_token", "kv_cache_bytes",
                    "prefix_hit_rate", "preemptions"):
            if key in stats:
                results[f"engine_{key}"] = stats[key]
    finally:
        await engine.stop()


def _long_prompt(tokenizer, settings: Settings, index: int, tokens: int) -> list[int]:
    """A prompt of about ``tokens`` tokens: a history cut to length, different for each ``index``."""
    ids = _chat_ids(tokenizer, long_history(settings, f"long-{index}", 1 + tokens // 90))
    return ids[:tokens]


def run(args: argparse.Namespace, settings: Settings) -> dict[str, Any]:
    from transformers import AutoTokenizer

    from app.device import working_device
    from app.engine.metrics import peak_rss_bytes
    from app.engine.model_runner import compute_dtype
    from app.models.prepare import prepare_models

    started = time.perf_counter()
    use_torch_threads(1)  # this thread only prepares; each contender runs on its own thread (see below)
    plan = Plan.of(args.quick, args.requests)
    device = working_device(settings.device)  # before the transformers baselines too: the same attention as the engine's
    llm_dir = prepare_models(settings).llm_dir
    dtype = compute_dtype(settings.llm_dtype, llm_dir, device, lean=settings.llm_lean_forward,
                          half_weights=settings.llm_half_weights,
                          weight_bits=settings.weight_bits)  # the engine's, for every contender
    tokenizer = AutoTokenizer.from_pretrained(llm_dir)
    prompts = seed_prompts(tokenizer, settings, plan.requests)
    results: dict[str, Any] = {"model": Path(str(llm_dir)).name, "device": str(device),
                               "dtype": str(dtype).removeprefix("torch."), "quick": bool(args.quick),
                               "requests": plan.requests, "new_tokens": NEW_TOKENS,
                               "torch_threads": args.threads or len(os.sched_getaffinity(0)),
                               "prompt_tokens_mean": statistics.mean(len(p) for p in prompts)}

    def machine_and_transformers() -> tuple[roofline.MachineLimits, roofline.ModelShape]:
        use_torch_threads(args.threads)
        log.info("measuring memory bandwidth and matmul peak")
        kernel_dtypes = {dtype, torch.float32} | ({torch.bfloat16} if device.type == "cuda" or cpu_has_fast_bf16() else set())
        limits = roofline.measure_machine(device, sorted(kernel_dtypes, key=str))
        return limits, _hf_section(llm_dir, prompts, plan, device, dtype, tokenizer, results)

    limits, shape = on_own_thread(machine_and_transformers)
    results["machine_mem_read_gb_s"] = limits.read_bytes_per_s / 1e9
    results["machine_mem_copy_gb_s"] = limits.copy_bytes_per_s / 1e9
    for name, flops in limits.matmul_flops_per_s.items():
        results[f"machine_matmul_{name}_gflop_s"] = flops / 1e9
    for name, rate in limits.bandwidth_by_method.items():
        results[f"machine_mem_read_{name}_gb_s"] = rate / 1e9
    results["machine_cache_mib"] = limits.cache_bytes / 2**20  # reads that fit in it are not in machine_mem_read_gb_s

    # this engine, whatever the server would use, on as many threads as the contenders had
    settings = settings.model_copy(update={"llm_backend": "local", "llm_threads": args.threads})
    memory: dict[str, Any] = {}
    asyncio.run(_engine_section(settings, str(llm_dir), tokenizer, prompts, plan, device, results, memory))
    # the limit of the weights and KV as the engine stores them (4/8-bit records, 16-bit, ...)
    shape = replace(
        shape,
        weight_bytes=results.get("engine_weight_bytes", shape.weight_bytes),
        kv_bytes_per_token=results.get("engine_kv_bytes_per_token", shape.kv_bytes_per_token),
    )
    results["decode_bytes_per_step_weights_mb"] = shape.weight_bytes / 2**20
    memory["kv_bytes_per_token"] = shape.kv_bytes_per_token

    results["decode_tps_limit_8"] = roofline.decode_tokens_per_s_limit(shape, 8, results["decode_context_8"], limits)
    results["decode_efficiency_8"] = results["decode_tps_8"] / results["decode_tps_limit_8"]
    results["decode_tps_limit_8_long"] = roofline.decode_tokens_per_s_limit(
        shape, 8, results["decode_context_8_long"], limits)
    results["decode_efficiency_8_long"] = results["decode_tps_8_long"] / results["decode_tps_limit_8_long"]
    results["engine_8_vs_serial"] = results["qps_engine_8"] / results["qps_serial"]
    results["engine_8_vs_fixed_8"] = results["qps_engine_8"] / results["qps_fixed_8"]
    results["engine_8_vs_hf_cb"] = results["qps_engine_8"] / results["qps_hf_cb"]
    results["engine_vs_serial"] = results["qps_engine"] / results["qps_serial"]
    results["voice_flood_vs_idle"] = results["voice_ttft_p95_flood_s"] / results["voice_ttft_p95_idle_s"]
    results["prefix_reuse_speedup"] = results["ttft_prefix_cold_s"] / results["ttft_prefix_reuse_s"]
    results.update(memory)
    for name in ("short", "long"):
        results[f"kv_mb_b8_{name}"] = 8 * memory[f"context_{name}_tokens"] * shape.kv_bytes_per_token / 2**20
    results["rss_growth_mb_b1_to_b8"] = memory["rss_mb_b8_short"] - memory["rss_mb_b1_short"]
    results["rss_growth_mb_short_to_long"] = memory["rss_mb_b8_long"] - memory["rss_mb_b8_short"]
    results["peak_rss_mb"] = peak_rss_bytes() / 2**20
    if device.type == "cuda":
        results["cuda_max_memory_allocated_mb"] = torch.cuda.max_memory_allocated(device) / 2**20
    results["bench_seconds"] = time.perf_counter() - started
    return report("LLM engine benchmark", results, args.json_path)
