"""Speech recognition: Whisper behind a recogniser that batches the utterances of all sessions."""

from __future__ import annotations

from app.asr.recognizer import SpeechRecognizer, Transcript
from app.asr.whisper_backend import Recognition, WhisperTranscriber
from app.config import Settings
from app.device import resolve_dtype, working_device

__all__ = [
    "Recognition",
    "SpeechRecognizer",
    "Transcript",
    "WhisperTranscriber",
    "create_recognizer",
    "create_transcriber",
]


def create_transcriber(settings: Settings, prepared, *, full_window: bool | None = None) -> WhisperTranscriber:
    """The Whisper model the settings select (``full_window`` overrides ``settings.asr_full_window``)."""
    device = working_device(settings.device)
    return WhisperTranscriber(
        prepared.whisper_pt,
        language=settings.asr_language,
        device=str(device),
        dtype=resolve_dtype(settings.asr_dtype, device),
        full_window=settings.asr_full_window if full_window is None else full_window,
    )


def create_recognizer(settings: Settings, prepared) -> SpeechRecognizer:
    """The shared recogniser for ``prepared.whisper_pt`` (call ``await start()`` before use)."""
    return SpeechRecognizer(
        create_transcriber(settings, prepared),
        batch_window_ms=settings.asr_batch_window_ms,
        max_batch=settings.asr_max_batch,
        threads=settings.asr_threads,
    )
