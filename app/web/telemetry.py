"""Latency windows, the dashboard's time series and the Prometheus metrics of one app."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Callable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, ProcessCollector
from prometheus_client.metrics_core import Metric
from prometheus_client.parser import text_string_to_metric_families

from app.percentile import percentile

STAGES = (
    "endpoint_ms",
    "asr_ms",
    "llm_first_token_ms",
    "first_clause_ms",
    "tts_first_chunk_ms",
    "send_ms",
    "total_ms",
)
TEXT_TTFT = "text_ttft_ms"
SERIES_POINTS = 120

# The engine's series under vLLM's names in this server's namespace (vLLM's ``vllm:num_requests_running`` is
# ``voicechat:num_requests_running`` here), one name per figure; a series the engine adds later keeps its own
# name less the ``llm_`` prefix.
ENGINE_NAMESPACE = "voicechat:"
ENGINE_NAMES = {
    "llm_requests_running": "num_requests_running",
    "llm_requests_waiting": "num_requests_waiting",
    "llm_ttft_seconds": "time_to_first_token_seconds",
    "llm_inter_token_seconds": "inter_token_latency_seconds",
    "llm_step_seconds": "engine_step_seconds",
    "llm_generated_tokens": "generation_tokens",
    "llm_prompt_tokens": "prompt_tokens",
    "llm_prefix_hit_tokens": "prefix_cache_hits",
    "llm_preemptions": "num_preemptions",
    "llm_requests_finished": "request_success",
    "llm_aborted_steps": "aborted_steps",
    "llm_batch_size": "batch_size",
    "llm_batch_limit": "batch_limit",
    "llm_kv_blocks_used": "kv_cache_blocks_used",
    "llm_kv_blocks_free": "kv_cache_blocks_free",
    "llm_kv_blocks_cached": "kv_cache_blocks_cached",
    "llm_tokens_per_second": "generation_tokens_per_second",
    "llm_peak_memory_bytes": "peak_memory_bytes",
    "llm_spec_proposed_tokens": "spec_decode_num_draft_tokens",
    "llm_spec_accepted_tokens": "spec_decode_num_accepted_tokens",
    "llm_spec_verified_rows": "spec_decode_num_drafts",
    "llm_spec_tokens": "spec_decode_tokens_per_draft",
}
LABEL_NAMES = {"reason": "finished_reason"}  # vLLM's label for why a request finished


@dataclass
class _Sample:
    at: float
    latency: dict[str, Any]
    text_only: bool


class LatencyWindow:
    """Per-stage latencies of replies over the last ``window_s`` seconds, for p50/p95."""

    def __init__(self, window_s: float = 300.0, clock: Callable[[], float] = time.time):
        self.window_s = window_s
        self._clock = clock
        self._samples: deque[_Sample] = deque()

    def record(self, latency: dict[str, Any], *, text_only: bool) -> None:
        self._samples.append(_Sample(self._clock(), latency, text_only))
        self._expire()

    def _expire(self) -> None:
        horizon = self._clock() - self.window_s
        while self._samples and self._samples[0].at < horizon:
            self._samples.popleft()

    def summary(self) -> dict[str, dict[str, float | int | None]]:
        """``{stage: {p50, p95, n}}`` for every stage plus ``text_ttft_ms`` (total of text-only replies)."""
        self._expire()
        columns: dict[str, list[float]] = {stage: [] for stage in (*STAGES, TEXT_TTFT)}
        for sample in self._samples:
            for stage in STAGES:
                value = sample.latency.get(stage)
                if isinstance(value, (int, float)):
                    columns[stage].append(float(value))
            if sample.text_only and isinstance(sample.latency.get("total_ms"), (int, float)):
                columns[TEXT_TTFT].append(float(sample.latency["total_ms"]))
        return {
            stage: {"p50": percentile(values, 50), "p95": percentile(values, 95), "n": len(values)}
            for stage, values in columns.items()
        }


def normalize_engine_stats(raw: dict[str, Any]) -> dict[str, Any]:
    """The engine's own flat stats (``LLMBackend.stats()``) -> the dashboard's fixed fields
    (``None`` where a backend does not report one, as the remote one does not report its KV)."""
    used, total = raw.get("kv_blocks_used"), raw.get("kv_blocks_total")
    return {
        "batch_size": raw.get("batch_size", raw.get("running")),  # a remote backend knows only its running requests
        "max_batch": raw.get("max_batch"),
        "queue": {kind: raw.get(f"waiting_{kind}") for kind in ("voice", "text", "background")},
        "running": raw.get("running"),
        "kv_used_blocks": used,
        "kv_total_blocks": total,
        "kv_use": used / total if isinstance(used, int) and isinstance(total, int) and total else None,
        "tokens_per_s": raw.get("tokens_per_s"),
        "raw": raw,
    }


class Telemetry:
    """Everything measured across sessions: the latency window, the series, Prometheus metrics."""

    def __init__(self, window_s: float = 300.0):
        self.started = time.time()
        self.latency = LatencyWindow(window_s)
        self.series: deque[dict[str, Any]] = deque(maxlen=SERIES_POINTS)
        self.registry = CollectorRegistry()
        ProcessCollector(registry=self.registry)  # RSS and open fds: the load benchmark watches them for leaks
        self.sessions_gauge = Gauge("voicechat_sessions", "Live WebSocket sessions", registry=self.registry)
        self.responses = Counter(
            "voicechat_responses", "Replies by final status and kind", ["status", "kind"], registry=self.registry
        )
        self.stage_seconds = Histogram(
            "voicechat_stage_latency_seconds",
            "Per-stage reply latency",
            ["stage"],
            buckets=(0.01, 0.025, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0),
            registry=self.registry,
        )
        self.errors = Counter("voicechat_client_errors", "Error events sent, by code", ["code"], registry=self.registry)

    def watch_engine(self, engine: Any, model_name: Callable[[], str]) -> None:
        """Export ``engine``'s figures with the others, each under one vLLM-style name labelled ``model_name``."""
        self.registry.register(EngineCollector(engine, model_name))

    def record_response(self, status: str, latency: dict[str, Any], *, text_only: bool, voice_turn: bool) -> None:
        self.responses.labels(status=status, kind="voice" if voice_turn else "text").inc()
        if status != "completed":
            return
        self.latency.record(latency, text_only=text_only)
        for stage in STAGES:
            value = latency.get(stage)
            if isinstance(value, (int, float)):
                self.stage_seconds.labels(stage=stage.removesuffix("_ms")).observe(value / 1000.0)

    def sample(self, sessions: int, engine: dict[str, Any]) -> None:
        """One point of the dashboard's time series (called once a second)."""
        queue = engine["queue"]
        point: dict[str, Any] = {
            "t": round(time.time(), 3),
            "sessions": sessions,
            "batch_size": engine["batch_size"],
            "queue_voice": queue["voice"],
            "queue_text": queue["text"],
            "queue_background": queue["background"],
            "kv_use": engine["kv_use"],
            "tokens_per_s": engine["tokens_per_s"],
        }
        for stage, summary in self.latency.summary().items():  # e.g. asr_p50_ms, total_p95_ms
            name = stage.removesuffix("_ms")
            point[f"{name}_p50_ms"] = summary["p50"]
            point[f"{name}_p95_ms"] = summary["p95"]
        self.series.append(point)


class EngineCollector:
    """The LLM backend's figures, read at scrape time through its public ``metrics_text()`` and ``stats()``.

    The local engine's own series are renamed (``ENGINE_NAMES``) and labelled with the model; the KV cache
    use comes from its stats. A remote backend reports only its running requests (its server has the rest).
    """

    def __init__(self, engine: Any, model_name: Callable[[], str]):
        self.engine = engine
        self.model_name = model_name

    def collect(self) -> Iterator[Metric]:
        model = self.model_name()
        exposition = getattr(self.engine, "metrics_text", None)
        if exposition is not None:
            for family in text_string_to_metric_families(exposition().decode()):
                if not family.name.endswith("_created"):
                    yield _renamed(family, model)
        stats = self.engine.stats()
        used, total = stats.get("kv_blocks_used"), stats.get("kv_blocks_total")
        if isinstance(used, int) and isinstance(total, int) and total:
            usage = Metric(ENGINE_NAMESPACE + "kv_cache_usage_perc", "KV cache usage (1 = full)", "gauge")
            usage.add_sample(usage.name, {"model_name": model}, used / total)
            yield usage
        if exposition is None and isinstance(stats.get("running"), int):
            running = Metric(ENGINE_NAMESPACE + "num_requests_running", "Requests streaming from the LLM", "gauge")
            running.add_sample(running.name, {"model_name": model}, stats["running"])
            yield running


def _renamed(family: Metric, model: str) -> Metric:
    """``family`` under its vLLM-style name, every sample labelled with the model."""
    name = ENGINE_NAMESPACE + ENGINE_NAMES.get(family.name, family.name.removeprefix("llm_"))
    renamed = Metric(name, family.documentation, family.type)
    for sample in family.samples:
        labels = {LABEL_NAMES.get(key, key): value for key, value in sample.labels.items()}
        renamed.add_sample(name + sample.name.removeprefix(family.name), {"model_name": model, **labels}, sample.value)
    return renamed
