"""Speech recognition: Whisper behind a recogniser that batches the utterances of all sessions."""

from __future__ import annotations

from app.asr.recognizer import SpeechRecognizer, Transcript
from app.asr.whisper_backend import Recognition, WhisperTranscriber
from app.config import Settings

__all__ = ["Recognition", "SpeechRecognizer", "Transcript", "WhisperTranscriber", "create_recognizer", "torch_device"]


def torch_device(setting: str) -> str:
    """Resolve the ``device`` setting: 'auto' is the first GPU when torch sees one, else the CPU."""
    if setting != "auto":
        return setting
    import torch

    return "cuda" if torch.cuda.is_available() else "cpu"


def create_recognizer(settings: Settings, prepared) -> SpeechRecognizer:
    """The shared recogniser for ``prepared.whisper_pt`` (call ``await start()`` before use)."""
    transcriber = WhisperTranscriber(
        prepared.whisper_pt,
        language=settings.asr_language,
        device=torch_device(settings.device),
        full_window=settings.asr_full_window,
    )
    return SpeechRecognizer(transcriber, batch_window_ms=settings.asr_batch_window_ms, max_batch=settings.asr_max_batch)
