"""Reference speech for benchmarks and tests: the pytest-audioeval samples and espeak-ng speech."""

from __future__ import annotations

import importlib.util
import io
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import soundfile as sf

from app.audio import load_audio, resample


@dataclass
class SpeechSample:
    name: str
    audio: np.ndarray  # float32 16 kHz mono
    text: str  # what is said


def audioeval_samples(language: str = "en") -> list[SpeechSample]:
    """The recorded samples shipped in pytest-audioeval (16 kHz wav + transcript), sorted by name."""
    spec = importlib.util.find_spec("pytest_audioeval")
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError("pytest-audioeval is not installed: pip install pytest-audioeval==0.1.3")
    folder = Path(list(spec.submodule_search_locations)[0]) / "samples" / "audio" / language
    if not folder.is_dir():
        raise FileNotFoundError(f"no pytest-audioeval samples for language {language!r} in {folder}")
    return [
        SpeechSample(wav.stem, load_audio(wav), wav.with_suffix(".txt").read_text().strip())
        for wav in sorted(folder.glob("*.wav"))
    ]


def espeak_speech(text: str, *, voice: str = "en-us", words_per_minute: int = 160) -> np.ndarray:
    """``text`` spoken by espeak-ng, as float32 16 kHz mono (espeak-ng must be installed)."""
    if shutil.which("espeak-ng") is None:
        raise RuntimeError("espeak-ng is not installed: apt-get install espeak-ng")
    wav = subprocess.run(
        ["espeak-ng", "--stdout", "-v", voice, "-s", str(words_per_minute), text],
        check=True,
        capture_output=True,
    ).stdout
    audio, rate = sf.read(io.BytesIO(wav), dtype="float32")
    return resample(audio.reshape(len(audio), -1).mean(axis=1), rate, 16000)


def speech_bounds(audio: np.ndarray, *, rate: int = 16000, floor: float = 0.01) -> tuple[float, float]:
    """First and last time (s) where the 10 ms envelope exceeds ``floor``: where synthetic speech really is."""
    hop = rate // 100
    frames = audio[: len(audio) // hop * hop].reshape(-1, hop)
    loud = np.flatnonzero(np.abs(frames).max(axis=1) > floor)
    if len(loud) == 0:
        return 0.0, 0.0
    return loud[0] * hop / rate, (loud[-1] + 1) * hop / rate
