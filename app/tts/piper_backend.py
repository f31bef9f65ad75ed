"""Piper (ONNX VITS voices): the default synthesiser, fast enough on a CPU to speak in real time."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import onnxruntime
from piper import PiperVoice
from piper.config import PiperConfig, SynthesisConfig

from app.cpu_share import engine_work
from app.tts.synthesizer import WARM_UP_TEXT, SynthesisError


class PiperSynthesizer:
    """One piper voice; piper itself splits the text into sentences and yields one piece per sentence."""

    name = "piper"
    changes_speed = True

    def __init__(self, model_path: str | Path, config_path: str | Path | None = None, *, threads: int = 2) -> None:
        """``threads``: ONNX Runtime threads, which wait without spinning: the voice shares the CPU with the LLM
        engine, and busy-waiting threads would slow both. Two threads speak a first clause sooner than one on a
        2-core CPU (``voicechat bench tts``); while the engine on the same cores decodes several users' spoken
        replies (``app.cpu_share.EngineWork.voice_replies``; it steps on one thread during a synthesis) the voice
        speaks on one, which beside it was as fast as two and left the engine its core (docs/benchmarks.md). The
        one-thread voice is warmed up here: a caller's own warm-up (``TTSWorker.start``) runs while no engine decodes,
        so it reaches only the other."""
        config_path = Path(config_path) if config_path else Path(f"{model_path}.json")
        try:
            config = PiperConfig.from_dict(json.loads(config_path.read_text(encoding="utf-8")))
            self._alone = PiperVoice(session=_session(model_path, threads), config=config)
            self._beside_engine = PiperVoice(session=_session(model_path, 1), config=config) if threads > 1 else self._alone
            if self._beside_engine is not self._alone:
                for _ in self._beside_engine.synthesize(WARM_UP_TEXT):
                    pass
        except Exception as error:  # ONNX Runtime's load errors derive from Exception only
            raise SynthesisError(f"cannot load piper voice {model_path}: {error}") from error
        self.sample_rate: int = config.sample_rate
        self._length_scale = config.length_scale  # the voice's own phoneme length, which a speed divides

    def synthesize(self, text: str, speed: float = 1.0) -> Iterator[np.ndarray]:
        if not text.strip():
            return
        voice = self._beside_engine if engine_work.voice_replies > 1 else self._alone
        rate = None if speed == 1.0 else SynthesisConfig(length_scale=self._length_scale / speed)
        for chunk in voice.synthesize(text, syn_config=rate):
            yield np.asarray(chunk.audio_float_array, dtype=np.float32).reshape(-1)


def _session(model_path: str | Path, threads: int) -> onnxruntime.InferenceSession:
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return onnxruntime.InferenceSession(str(model_path), sess_options=options, providers=["CPUExecutionProvider"])
