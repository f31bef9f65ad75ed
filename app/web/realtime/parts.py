"""The shared parts a session talks to, as protocols: what the session needs of them and nothing more,
so the turn logic can be tested with small fakes and the real engine, Whisper and TTS fit unchanged."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from app.config import Settings
from app.engine.api import LLMBackend
from app.vad.end_of_turn import EndOfTurnScorer
from app.web.history import HistoryStore
from app.web.telemetry import Telemetry


class Transcription(Protocol):
    """A recognised utterance (``app.asr.Transcript``)."""

    text: str
    language: str
    duration_s: float
    asr_s: float


class Recognizer(Protocol):
    """Speech to text (``app.asr.SpeechRecognizer``): float32 16 kHz mono in."""

    @property
    def languages(self) -> frozenset[str]:
        """The language codes it transcribes."""

    async def transcribe(
        self, audio: np.ndarray, *, final: bool = True, session_id: str | None = None, language: str | None = None
    ) -> Transcription | None: ...

    def stats(self) -> dict:
        """Counters for readiness and the dashboard."""


class SpeechOut(Protocol):
    """Text to speech (``app.tts.TTSWorker``): PCM16 chunks of one clause, cancellable per reply."""

    @property
    def changes_speed(self) -> bool:
        """Whether its voice speaks at another ``speed`` than its own."""

    def synthesize(
        self, text: str, *, reply_id: str, first: bool, out_rate: int, speed: float = 1.0
    ) -> AsyncIterator[bytes]: ...

    def cancel(self, reply_id: str) -> None: ...

    def stats(self) -> dict:
        """Counters for readiness and the dashboard."""


@dataclass
class SharedParts:
    """What every session shares: one engine, one recogniser, one TTS worker, one history store."""

    settings: Settings
    engine: LLMBackend
    recognizer: Recognizer
    tts: SpeechOut
    history: HistoryStore
    telemetry: Telemetry
    end_of_turn: EndOfTurnScorer | None = None  # semantic_vad's judge; None where the backend cannot score
