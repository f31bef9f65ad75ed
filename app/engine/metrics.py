"""Engine metrics: Prometheus series for scraping and a flat snapshot for the dashboard.

Each engine owns its registry, so several engines (tests, benchmarks) never collide.
"""

from __future__ import annotations

import resource
import time
from collections import deque

import torch
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

from app.engine.api import Priority

LATENCY_BUCKETS = (0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0)
RATE_WINDOW_S = 5.0


def peak_rss_bytes() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


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

    def observe_step(self, batch_size: int, batch_limit: int, new_tokens: int, prompt_tokens: int, step_s: float) -> None:
        now = time.monotonic()
        self.steps += 1
        self.last_step_ms = step_s * 1000
        self.last_batch_size = batch_size
        self.total_generated += new_tokens
        self.total_prompt_tokens += prompt_tokens
        self.batch_size.set(batch_size)
        self.batch_limit.set(batch_limit)
        self.step_seconds.observe(step_s)
        self.generated.inc(new_tokens)
        self.prompt_tokens.inc(prompt_tokens)
        self._recent_tokens.append((now, new_tokens))
        while self._recent_tokens and now - self._recent_tokens[0][0] > RATE_WINDOW_S:
            self._recent_tokens.popleft()

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
            out[f"ttft_p50_{p.name.lower()}_s"] = _percentile(list(values), 0.5)
            out[f"ttft_p95_{p.name.lower()}_s"] = _percentile(list(values), 0.95)
        return out

    def exposition(self) -> bytes:
        """Prometheus text format for a /metrics endpoint."""
        self.tokens_per_s.set(self.current_tokens_per_s())
        self.peak_memory.set(self.peak_memory_bytes())
        return generate_latest(self.registry)
