"""Piper (ONNX VITS voices): the default synthesiser, fast enough on a CPU to speak in real time."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
from piper import PiperVoice

from app.tts.synthesizer import SynthesisError


class PiperSynthesizer:
    """One piper voice; piper itself splits the text into sentences and yields one piece per sentence."""

    name = "piper"

    def __init__(self, model_path: str | Path, config_path: str | Path | None = None) -> None:
        try:
            self._voice = PiperVoice.load(model_path, config_path=config_path)
        except (OSError, ValueError, KeyError) as error:
            raise SynthesisError(f"cannot load piper voice {model_path}: {error}") from error
        self.sample_rate: int = self._voice.config.sample_rate

    def synthesize(self, text: str) -> Iterator[np.ndarray]:
        if not text.strip():
            return
        for chunk in self._voice.synthesize(text):
            yield np.asarray(chunk.audio_float_array, dtype=np.float32).reshape(-1)
