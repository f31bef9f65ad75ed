"""Coqui TTS (the ``coqui`` extra): any local Coqui model folder, or a model name its manager can fetch."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from app.tts.synthesizer import SynthesisError

_SENTENCE = re.compile(r"(?<=[.!?])\s+")


class CoquiSynthesizer:
    """``model`` is a folder with ``model.pth`` (or another ``.pth``) and ``config.json``, a ``.pth`` path
    with ``config.json`` beside it, or a Coqui model name. Yields one piece per sentence."""

    name = "coqui"

    def __init__(self, model: str | Path, device: str = "cpu") -> None:
        try:
            from TTS.api import TTS
        except ImportError as error:
            raise SynthesisError(f"Coqui TTS is not installed ({error}); install the 'coqui' extra") from error
        except OSError as error:  # torchaudio's compiled extension built for another torch (see the README)
            raise SynthesisError(f"Coqui TTS cannot import torchaudio: {error}") from error
        try:
            checkpoint = _local_checkpoint(Path(model))
            if checkpoint is not None:
                self._tts = TTS(model_path=str(checkpoint), config_path=str(checkpoint.parent / "config.json"),
                                progress_bar=False)  # fmt: skip
            else:
                self._tts = TTS(str(model), progress_bar=False)
            self._tts.to(device)
        except SynthesisError:
            raise
        except Exception as error:  # Coqui raises anything from KeyError to network errors
            raise SynthesisError(f"cannot load Coqui model {model}: {error}") from error
        self.sample_rate: int = int(self._tts.synthesizer.output_sample_rate)
        self._speaker = self._tts.speakers[0] if self._tts.is_multi_speaker and self._tts.speakers else None
        self._language = "en" if self._tts.is_multi_lingual else None
        self._model = self._tts.synthesizer.tts_model
        # models with a duration predictor (VITS, Glow-TTS) stretch phonemes by ``length_scale``; others cannot
        self._length_scale: float | None = getattr(self._model, "length_scale", None)
        self.changes_speed = isinstance(self._length_scale, (int, float))

    def synthesize(self, text: str, speed: float = 1.0) -> Iterator[np.ndarray]:
        for sentence in _SENTENCE.split(text.strip()):
            if not any(ch.isalnum() for ch in sentence):
                continue
            if self.changes_speed:  # one synthesis at a time (the TTS worker's thread), so the model's own is safe to set
                self._model.length_scale = self._length_scale / speed
            audio = self._tts.tts(sentence, speaker=self._speaker, language=self._language, split_sentences=False)
            yield np.asarray(audio, dtype=np.float32).reshape(-1)


def _local_checkpoint(model: Path) -> Path | None:
    """The ``.pth`` of a local model (a folder or the file itself), or None for a model name."""
    if model.is_file() and model.suffix == ".pth":
        checkpoint = model
    elif model.is_dir():
        candidates = [model / "model.pth", *sorted(model.glob("*.pth"))]
        checkpoint = next((c for c in candidates if c.is_file()), None)
        if checkpoint is None:
            raise SynthesisError(f"no .pth checkpoint in Coqui model folder {model}")
    else:
        return None
    if not (checkpoint.parent / "config.json").is_file():
        raise SynthesisError(f"Coqui model {checkpoint} has no config.json beside it")
    return checkpoint
