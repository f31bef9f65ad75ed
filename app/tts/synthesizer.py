"""The one interface every speech synthesiser implements, and the choice of backend from the settings."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import TYPE_CHECKING, Protocol

import numpy as np

if TYPE_CHECKING:
    from app.config import Settings
    from app.models.prepare import PreparedModels

logger = logging.getLogger(__name__)

DEFAULT_PIPER_VOICE = "joe-medium"  # the packaged voice; also the settings default of ``tts_voice``
WARM_UP_TEXT = "Hello."  # spoken once before the first request: a synthesiser's first call is its slowest


class SynthesisError(RuntimeError):
    """A synthesiser could not be loaded or failed on a text."""


class SpeechSynthesizer(Protocol):
    """Text in, float32 mono audio out, streamed in pieces (one per sentence or phrase) at ``sample_rate``.
    ``changes_speed``: whether ``speed`` is heard (a voice that cannot speak faster or slower says so here, and a
    session's request for another speed is refused rather than ignored)."""

    name: str
    sample_rate: int
    changes_speed: bool

    def synthesize(self, text: str, speed: float = 1.0) -> Iterator[np.ndarray]:
        """Yield float32 audio in [-1, 1]; nothing for text without speakable words. ``speed``: a multiple of the
        voice's own rate (the Realtime protocol's ``audio.output.speed``, 0.25-1.5), pitch kept."""
        ...


def create_synthesizer(settings: Settings, prepared: PreparedModels | None = None) -> SpeechSynthesizer:
    """The backend the settings select; espeak-ng stands in (with a warning) when that one cannot load."""
    try:
        if settings.tts_backend == "piper":
            from app.tts.piper_backend import PiperSynthesizer

            if prepared is None:
                raise SynthesisError("the piper voice has not been prepared (run `voicechat prepare`)")
            return PiperSynthesizer(prepared.piper_model, prepared.piper_config, threads=settings.tts_threads)
        if settings.tts_backend == "coqui":
            from app.device import working_device
            from app.tts.coqui_backend import CoquiSynthesizer

            return CoquiSynthesizer(settings.tts_voice, device=str(working_device(settings.device)))
    except SynthesisError as error:
        logger.warning("%s backend unavailable (%s); speaking with espeak-ng instead", settings.tts_backend, error)
    from app.tts.espeak_backend import EspeakSynthesizer

    chosen = settings.tts_backend == "espeak" and settings.tts_voice != DEFAULT_PIPER_VOICE
    voice = settings.tts_voice if chosen else "en-us"
    return EspeakSynthesizer(voice)
