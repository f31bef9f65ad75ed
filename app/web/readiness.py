"""Readiness: whether every stage (LLM engine, speech recognition, speech synthesis) still makes progress.

A stage's worker runs on a thread of its own; when it dies or hangs, its queue stops moving while the HTTP
server still answers. Each stage is watched through its public ``stats()``: work waiting while the progress
counter stands still for ``stall_s`` makes the server unready, and for ``exit_s`` fatal.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Any, Callable

log = logging.getLogger(__name__)

# stage: (part of SharedParts, stats counting work waiting or in hand, stats counter that moves with progress)
STAGES: dict[str, tuple[str, tuple[str, ...], str]] = {
    "llm": ("engine", ("running", "waiting"), "steps"),
    "asr": ("recognizer", ("asr_queue",), "asr_batches"),
    "tts": ("tts", ("tts_queued", "tts_busy"), "tts_chunks"),
}


@dataclass
class _Watch:
    progress: float
    moved_at: float  # when the counter last moved, or when the stage last had nothing to do
    pending: float = 0


class Readiness:
    """Tracks each stage's progress; ``problems()`` lists the stalled ones, ``fatal`` the first that stayed so."""

    def __init__(self, stall_s: float, exit_s: float = 0.0, clock: Callable[[], float] = time.monotonic):
        self.stall_s = stall_s
        self.exit_s = exit_s
        self.clock = clock
        self.on_fatal: Callable[[str], None] | None = None  # set by `voicechat serve`: stop so a supervisor restarts
        self.fatal: str | None = None
        self._watches: dict[str, _Watch] = {}

    def observe(self, stage: str, *, pending: float, progress: float) -> None:
        now = self.clock()
        watch = self._watches.get(stage)
        if watch is None or not pending or progress != watch.progress:
            self._watches[stage] = _Watch(progress, now, pending)
            return
        watch.pending = pending
        stalled = now - watch.moved_at
        if self.exit_s and stalled >= self.exit_s and self.fatal is None:
            self.fatal = f"the {stage} stage made no progress for {stalled:.0f} s with work waiting; stopping"
            log.critical("%s (a supervisor, e.g. compose's restart policy, starts it again)", self.fatal)
            if self.on_fatal is not None:
                self.on_fatal(self.fatal)

    def observe_parts(self, parts: Any) -> None:
        """One look at every stage's stats (called once a second)."""
        for stage, (attribute, pending_keys, progress_key) in STAGES.items():
            try:
                stats = getattr(parts, attribute).stats()
            except Exception:  # a broken stats() reads as a stage that cannot be seen to progress
                log.exception("%s stats failed", stage)
                stats = {}
            if progress_key in stats:  # a remote LLM counts no steps here: its own server reports its health
                pending = sum(float(stats.get(key) or 0) for key in pending_keys)
                self.observe(stage, pending=pending, progress=float(stats[progress_key]))

    def problems(self) -> list[str]:
        now = self.clock()
        return [
            f"{stage}: {watch.pending:g} waiting, no progress for {now - watch.moved_at:.0f} s"
            for stage, watch in self._watches.items()
            if watch.pending and now - watch.moved_at >= self.stall_s
        ]
