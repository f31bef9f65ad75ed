"""Reading and writing wav files as float32 mono."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import soundfile as sf

from app.audio.resample import resample


def read_wav(path: str | Path) -> tuple[np.ndarray, int]:
    """Audio of any file soundfile reads, as float32 mono (channels averaged) and its sample rate."""
    audio, rate = sf.read(str(path), dtype="float32", always_2d=True)
    return audio.mean(axis=1).astype(np.float32, copy=False), int(rate)


def load_audio(path: str | Path, rate: int = 16000) -> np.ndarray:
    """A file as float32 mono at ``rate`` (16 kHz, what the speech stages take)."""
    audio, file_rate = read_wav(path)
    return resample(audio, file_rate, rate)


def write_wav(path: str | Path, audio: np.ndarray, rate: int) -> None:
    """Write float32 mono audio as a 16-bit PCM wav."""
    sf.write(str(path), np.clip(np.asarray(audio, dtype=np.float32), -1.0, 1.0), rate, subtype="PCM_16")
