"""Latency windows, the dashboard's time series and the Prometheus metrics of one app."""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, ProcessCollector

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


def percentile(values: list[float], q: float) -> float | None:
    return float(np.percentile(values, q)) if values else None


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
        self.engine_gauge = Gauge("voicechat_engine", "Engine stats (numeric ones)", ["stat"], registry=self.registry)

    def record_response(self, status: str, latency: dict[str, Any], *, text_only: bool, voice_turn: bool) -> None:
        self.responses.labels(status=status, kind="voice" if voice_turn else "text").inc()
        if status != "completed":
            return
        self.latency.record(latency, text_only=text_only)
        for stage in STAGES:
            value = latency.get(stage)
            if isinstance(value, (int, float)):
                self.stage_seconds.labels(stage=stage.removesuffix("_ms")).observe(value / 1000.0)

    def export_engine(self, raw: dict[str, Any]) -> None:
        for key, value in raw.items():
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                self.engine_gauge.labels(stat=key).set(value)

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
