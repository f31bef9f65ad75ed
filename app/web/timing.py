"""When each stage of a reply happened, and the latency breakdown ``response.done`` carries."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass
class Timing:
    """Wall-clock stamps (``time.perf_counter``) of the reply's stages; None where not reached."""

    speech_end: float | None = None
    turn_end: float | None = None
    transcript: float | None = None
    first_token: float | None = None
    first_clause: float | None = None
    first_chunk: float | None = None
    first_sent: float | None = None
    speculative: bool = False

    def breakdown(self) -> dict[str, Any]:
        """Stage durations in ms; stamps are clamped to be monotonic, so a stage finished during a
        speculative pause counts 0 and the stages sum to ``total_ms``."""
        names = ("endpoint_ms", "asr_ms", "llm_first_token_ms", "first_clause_ms", "tts_first_chunk_ms", "send_ms")
        stamps = (self.turn_end, self.transcript, self.first_token, self.first_clause, self.first_chunk, self.first_sent)
        result: dict[str, Any] = {}
        previous = self.speech_end
        for name, stamp in zip(names, stamps):
            if stamp is None or previous is None:
                result[name] = None
                continue
            stamp = max(stamp, previous)
            result[name] = round((stamp - previous) * 1000, 1)
            previous = stamp
        total = None
        if self.speech_end is not None and self.first_sent is not None:
            total = round((max(self.first_sent, self.speech_end) - self.speech_end) * 1000, 1)
        result["total_ms"] = total
        result["speculative"] = self.speculative
        return result
