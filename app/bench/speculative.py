"""``voicechat bench speculative``: decoding with the draft model (or prompt lookup) against without, one engine, one run.

For each batch size (greedy, EOS ignored, every request started at once): decode tokens/s with
speculation off and with the engine's own choice (the adaptive k, off where it does not pay), the
share of proposals accepted, accepted tokens per verified row, the k the engine chose, and whether
the greedy outputs are identical (they must be with 16-bit weights; the 4- and 8-bit kernels give a row
slightly different logits depending on how many rows share its forward, which can flip a near-tie, as
batching itself can). Off and on runs alternate, so a busy machine's load falls on both alike; each
mode's best run is reported. Beside them: both models' forward times by tokens in the forward, as the
engine measured them, from which its policy chose k.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import statistics
import time
from pathlib import Path
from typing import Any

from app.bench.engine import seed_prompts
from app.bench.report import report
from app.config import LOOKUP_DRAFT, Settings
from app.engine import Priority, SamplingParams, create_backend

log = logging.getLogger(__name__)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tokens", type=int, default=48, help="new tokens per request [48]")
    parser.add_argument("--batches", default="1,8", help="batch sizes, comma-separated [1,8]")
    parser.add_argument("--repeats", type=int, default=2, help="runs per mode and batch size [2]")
    parser.add_argument("--force-k", type=int, default=None, metavar="K",
                        help="speculate with exactly K proposals a row when on, instead of the engine's choice")


async def decode_batch(engine, prompts: list[list[int]], tokens: int) -> tuple[float, list[list[int]]]:
    """All requests at once; returns decode tokens/s (after the last first token) and the outputs."""
    params = SamplingParams(max_tokens=tokens, ignore_eos=True)

    async def one(ids: list[int]) -> tuple[list[float], list[int]]:
        stamps, out = [], []
        async for delta in engine.generate(prompt_token_ids=ids, params=params, priority=Priority.TEXT):
            if delta.error:
                raise RuntimeError(f"engine request failed: {delta.error}")
            stamps += [time.perf_counter()] * len(delta.token_ids)
            out += delta.token_ids
        return stamps, out

    runs = await asyncio.gather(*[one(p) for p in prompts])
    start = max(stamps[0] for stamps, _ in runs)
    end = max(stamps[-1] for stamps, _ in runs)
    decoded = sum(1 for stamps, _ in runs for t in stamps if t > start)
    return decoded / max(end - start, 1e-9), [out for _, out in runs]


async def _measure(settings: Settings, llm_dir: str, draft_dir: str | None, args: argparse.Namespace) -> dict[str, Any]:
    batches = [int(b) for b in args.batches.split(",")]
    engine = create_backend(settings.model_copy(update={"max_batch": max(batches)}), model_path=llm_dir,
                            draft_path=draft_dir)
    await engine.start()
    try:
        policy = engine.speculator.policy
        choose = policy.choose
        chosen: list[int] = []

        def recording(rows: int) -> int:
            k = choose(rows) if args.force_k is None else args.force_k
            chosen.append(k)
            return k

        prompts = seed_prompts(engine.tokenizer, settings, max(batches))
        results: dict[str, Any] = {"model": Path(llm_dir).name,
                                   "draft_model": Path(draft_dir).name if draft_dir else LOOKUP_DRAFT,
                                   "new_tokens": args.tokens, "max_speculative_tokens": policy.max_k,
                                   "k_rule": "adaptive" if args.force_k is None else f"forced {args.force_k}"}
        policy.choose = lambda rows: 0
        await decode_batch(engine, prompts[:1], 4)  # warm the shapes of both modes
        policy.choose = recording
        await decode_batch(engine, prompts[:1], 8)
        m = engine.metrics
        for b in batches:
            rates: dict[str, list[float]] = {"off": [], "on": []}
            outputs: dict[str, list[list[int]]] = {}
            chosen.clear()
            before = (m.total_spec_verified, m.total_spec_proposed, m.total_spec_accepted)
            for _ in range(args.repeats):
                for mode in ("off", "on"):
                    policy.choose = recording if mode == "on" else (lambda rows: 0)
                    log.info("batch %d, speculation %s", b, mode)
                    rate, outputs[mode] = await decode_batch(engine, prompts[:b], args.tokens)
                    rates[mode].append(rate)
            verified, proposed, accepted = (now - was for now, was in zip(
                (m.total_spec_verified, m.total_spec_proposed, m.total_spec_accepted), before))
            results[f"decode_tps_off_b{b}"] = max(rates["off"])
            results[f"decode_tps_on_b{b}"] = max(rates["on"])
            results[f"speedup_b{b}"] = max(rates["on"]) / max(rates["off"])
            results[f"acceptance_b{b}"] = accepted / proposed if proposed else 0.0
            results[f"accepted_per_verify_b{b}"] = accepted / verified if verified else 0.0
            results[f"mean_k_b{b}"] = statistics.mean(chosen) if chosen else 0.0
            results[f"greedy_identical_b{b}"] = outputs["off"] == outputs["on"]
        results["draft_acceptance_estimate"] = policy.acceptance
        for name, times in (("target", policy.target), ("draft", policy.draft)):  # what the policy chose k from
            if times is None:
                continue  # prompt lookup: no draft forwards
            results[f"{name}_forward_ms_by_tokens"] = ", ".join(f"{tokens}: {ms:.1f}"
                                                                for tokens, ms in sorted(times.ms_by_tokens.items()))
        results["threads"] = engine.stats()["cpu_threads"]
        return results
    finally:
        await engine.stop()


def run(args: argparse.Namespace, settings: Settings) -> dict[str, Any]:
    from app.models.prepare import ModelPreparationError, prepare_models

    settings = settings.model_copy(update={"llm_backend": "local"})
    prepared = prepare_models(settings)
    if prepared.draft_llm_dir is None and settings.draft_model != LOOKUP_DRAFT:
        raise ModelPreparationError("no draft chosen: set --llm-draft-model to a model or 'lookup' (or --llm-model "
                                    "qwen2.5-1.5b, whose 'auto' draft is qwen2.5-0.5b)")
    draft_dir = str(prepared.draft_llm_dir) if prepared.draft_llm_dir else None
    results = asyncio.run(_measure(settings, str(prepared.llm_dir), draft_dir, args))
    return report("Speculative decoding benchmark", results, args.json_path)
