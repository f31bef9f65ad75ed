"""Engine metrics: Prometheus series for scraping and a flat snapshot for the dashboard.

Each engine owns its registry, so several engines (tests, benchmarks) never collide. The engine hands
each step's batch, outcome and outputs to :meth:`EngineMetrics.observe_step`, and its state to
:meth:`EngineMetrics.stats`.
"""

from __future__ import annotations

import resource
import time
from collections import deque
from typing import TYPE_CHECKING

import torch
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

from app.config import LOOKUP_DRAFT
from app.engine.api import Priority
from app.engine.scheduler import ScheduledBatch, SeqOutput, StepOutcome
from app.percentile import percentile

if TYPE_CHECKING:
    from app.engine.engine import LocalEngine

LATENCY_BUCKETS = (0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0)
RATE_WINDOW_S = 5.0


def peak_rss_bytes() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


class EngineMetrics:
    def __init__(self, device: torch.device) -> None:
        self.device = device
        self.registry = CollectorRegistry()
        r = self.registry
        self.running = Gauge("llm_requests_running", "Requests in the running batch", ["priority"], registry=r)
        self.waiting = Gauge("llm_requests_waiting", "Requests waiting for admission", ["priority"], registry=r)
        self.batch_size = Gauge("llm_batch_size", "Sequences in the last step", registry=r)
        self.batch_limit = Gauge("llm_batch_limit", "Adaptive batch limit of the last step", registry=r)
        self.kv_used = Gauge("llm_kv_blocks_used", "KV blocks held by requests", registry=r)
        self.kv_free = Gauge("llm_kv_blocks_free", "KV blocks free (cached prefixes included)", registry=r)
        self.kv_cached = Gauge("llm_kv_blocks_cached", "Free KV blocks still holding a reusable prefix", registry=r)
        self.tokens_per_s = Gauge("llm_tokens_per_second", f"Generated tokens per second over {RATE_WINDOW_S:g} s", registry=r)
        self.peak_memory = Gauge("llm_peak_memory_bytes", "Peak process RSS (CUDA: max allocated)", registry=r)
        self.generated = Counter("llm_generated_tokens", "Generated tokens", registry=r)
        self.prompt_tokens = Counter("llm_prompt_tokens", "Prompt tokens computed by prefill", registry=r)
        self.prefix_hits = Counter("llm_prefix_hit_tokens", "Prompt tokens served from the prefix cache", registry=r)
        self.preemptions = Counter("llm_preemptions", "Requests preempted for memory", registry=r)
        self.aborted_steps = Counter("llm_aborted_steps", "Steps dropped midway for an arriving voice request", registry=r)
        self.spec_proposed = Counter("llm_spec_proposed_tokens", "Draft tokens proposed for verification", registry=r)
        self.spec_accepted = Counter("llm_spec_accepted_tokens", "Draft tokens the target accepted", registry=r)
        self.spec_verified = Counter("llm_spec_verified_rows", "Decode rows that verified proposals", registry=r)
        self.spec_k = Gauge("llm_spec_tokens", "Tokens the draft proposes per row this step (0: speculation off)", registry=r)
        self.finished = Counter("llm_requests_finished", "Finished requests", ["priority", "reason"], registry=r)
        self.ttft = Histogram("llm_ttft_seconds", "Time to first token", ["priority"], buckets=LATENCY_BUCKETS, registry=r)
        self.itl = Histogram("llm_inter_token_seconds", "Time between tokens", buckets=LATENCY_BUCKETS, registry=r)
        self.step_seconds = Histogram("llm_step_seconds", "Duration of one engine step", buckets=LATENCY_BUCKETS, registry=r)
        self._recent_tokens: deque[tuple[float, int]] = deque()
        self._recent_ttft: dict[Priority, deque[float]] = {p: deque(maxlen=256) for p in Priority}
        self.steps = 0
        self.last_step_ms = 0.0
        self.last_batch_size = 0
        self.total_generated = 0
        self.total_prompt_tokens = 0
        self.total_aborted_steps = 0
        self.total_spec_verified = self.total_spec_proposed = self.total_spec_accepted = 0

    def observe_step(self, batch: ScheduledBatch, outcome: StepOutcome, outputs: list[SeqOutput], step_s: float,
                     spec_k: int) -> None:
        """One step: its size and time, the tokens it computed and produced, each request's token timing,
        the finished requests, speculation (``spec_k``: the tokens the draft proposed per row) and preemptions."""
        now = time.monotonic()
        generated = sum(len(out.delta.token_ids) for out in outputs)
        prompt_tokens = sum(n for _, n in batch.prefill)
        self.steps += 1
        self.last_step_ms = step_s * 1000
        self.last_batch_size = batch.num_seqs
        self.total_generated += generated
        self.total_prompt_tokens += prompt_tokens
        self.batch_size.set(batch.num_seqs)
        self.batch_limit.set(batch.batch_limit)
        self.step_seconds.observe(step_s)
        self.generated.inc(generated)
        self.prompt_tokens.inc(prompt_tokens)
        self._recent_tokens.append((now, generated))
        while self._recent_tokens and now - self._recent_tokens[0][0] > RATE_WINDOW_S:
            self._recent_tokens.popleft()
        for out in outputs:
            self._observe_output(out)
        if outcome.verified:
            self.observe_speculation(spec_k, outcome.verified, outcome.proposed, outcome.accepted)
        if batch.preempted:
            self.preemptions.inc(len(batch.preempted))

    def _observe_output(self, out: SeqOutput) -> None:
        """Time to first token, the gaps between tokens (the tokens of one step after the first come at once),
        and the reply's end."""
        tokens = len(out.delta.token_ids)
        if out.first_token and tokens:
            self.observe_ttft(out.seq.priority, out.seq.first_token_at - out.seq.arrival)
        gaps = ([] if out.first_token or out.gap_s is None else [out.gap_s]) + [0.0] * (tokens - 1)
        for gap in gaps:
            self.itl.observe(gap)
        if out.delta.finished:
            self.observe_finished(out.seq.priority, out.delta.finish_reason)

    def observe_finished(self, priority: Priority, reason: str) -> None:
        self.finished.labels(priority.name.lower(), reason).inc()

    def observe_speculation(self, k: int, verified: int, proposed: int, accepted: int) -> None:
        """One speculative step: ``verified`` rows checked ``proposed`` draft tokens and kept ``accepted``."""
        self.spec_k.set(k)
        self.total_spec_verified += verified
        self.total_spec_proposed += proposed
        self.total_spec_accepted += accepted
        self.spec_verified.inc(verified)
        self.spec_proposed.inc(proposed)
        self.spec_accepted.inc(accepted)

    def speculation(self) -> dict[str, float]:
        """Dashboard figures: the share of proposals accepted, and accepted tokens per verified row."""
        return {
            "spec_acceptance": round(self.total_spec_accepted / self.total_spec_proposed, 4) if self.total_spec_proposed else 0.0,
            "spec_accepted_per_verify": round(self.total_spec_accepted / self.total_spec_verified, 3)
            if self.total_spec_verified else 0.0,
            "spec_verified_rows": self.total_spec_verified,
        }

    def observe_aborted_step(self) -> None:
        self.total_aborted_steps += 1
        self.aborted_steps.inc()

    def observe_ttft(self, priority: Priority, seconds: float) -> None:
        self.ttft.labels(priority.name.lower()).observe(seconds)
        self._recent_ttft[priority].append(seconds)

    def current_tokens_per_s(self) -> float:
        """Generated tokens per second over the last few seconds (0 when idle)."""
        now = time.monotonic()
        recent = [(t, n) for t, n in self._recent_tokens if now - t <= RATE_WINDOW_S]
        if not recent:
            return 0.0
        return sum(n for _, n in recent) / max(now - recent[0][0], 0.5)

    def peak_memory_bytes(self) -> int:
        if self.device.type == "cuda":
            return int(torch.cuda.max_memory_allocated(self.device))
        return peak_rss_bytes()

    def ttft_percentiles(self) -> dict[str, float | None]:
        out: dict[str, float | None] = {}
        for p, values in self._recent_ttft.items():
            out[f"ttft_p50_{p.name.lower()}_s"] = percentile(values, 50)
            out[f"ttft_p95_{p.name.lower()}_s"] = percentile(values, 95)
        return out

    def exposition(self) -> bytes:
        """Prometheus text format for a /metrics endpoint."""
        self.tokens_per_s.set(self.current_tokens_per_s())
        self.peak_memory.set(self.peak_memory_bytes())
        return generate_latest(self.registry)

    def stats(self, engine: LocalEngine) -> dict:
        """The dashboard's flat snapshot of a started engine (the caller holds its lock); refreshes the gauges."""
        sched, blocks, runner = engine.scheduler, engine.blocks, engine.runner
        out: dict = {
            "backend": "local",
            "started": engine.started,
            "model": str(engine.model_path),
            "device": str(engine.device),
            "dtype": str(runner.dtype).removeprefix("torch."),
            "weight_format": runner.weight_format,
            "weight_bytes": runner.weight_bytes,
            "kv_dtype": str(runner.layout.dtype).removeprefix("torch."),
            "forward": "lean" if runner.lean is not None else "generic",
            "running": len(sched.running),
            "waiting": len(sched.waiting),
            "batch_size": self.last_batch_size if sched.running else 0,  # the last step's, while one runs
            "batch_limit": sched.last_limit,
            "max_batch": sched.config.max_batch,
            "kv_blocks_total": blocks.num_blocks,
            "kv_blocks_used": blocks.num_used,
            "kv_blocks_free": blocks.num_free,
            "kv_blocks_cached": blocks.num_cached_free,
            "kv_block_size": blocks.block_size,
            "kv_bytes_per_token": runner.layout.bytes_per_token,
            "kv_cache_bytes": runner.cache.nbytes,
            "tokens_per_s": round(self.current_tokens_per_s(), 2),
            "generated_tokens": self.total_generated,
            "prompt_tokens": self.total_prompt_tokens,
            "prefix_hit_tokens": blocks.prefix_hit_tokens,
            "prefix_hit_rate": round(blocks.prefix_hit_tokens / blocks.prefix_query_tokens, 4)
            if blocks.prefix_query_tokens
            else 0.0,
            "preemptions": sched.num_preemptions,
            "aborted_steps": self.total_aborted_steps,
            "steps": self.steps,
            "last_step_ms": round(self.last_step_ms, 2),
            "cpu_threads": engine.cpu_threads,
            "peak_memory_bytes": self.peak_memory_bytes(),
            "peak_rss_bytes": peak_rss_bytes(),
        }
        for p in Priority:
            name = p.name.lower()
            out[f"running_{name}"] = sum(1 for s in sched.running if s.priority == p)
            out[f"waiting_{name}"] = sum(1 for s in sched.waiting if s.priority == p)
            self.running.labels(name).set(out[f"running_{name}"])
            self.waiting.labels(name).set(out[f"waiting_{name}"])
        self.kv_used.set(blocks.num_used)
        self.kv_free.set(blocks.num_free)
        self.kv_cached.set(out["kv_blocks_cached"])
        out.update(self.ttft_percentiles())
        if engine.speculator is not None:
            out["spec_draft_model"] = str(engine.draft_path or LOOKUP_DRAFT)
            out["spec_tokens"] = engine.speculator.last_k
            out["spec_max_tokens"] = engine.speculator.policy.max_k
            self.spec_k.set(engine.speculator.last_k)
            out.update(self.speculation())
        return out
