"""Batched Whisper transcription with openai-whisper (greedy decoding of several utterances at once).

By default only the real audio frames are encoded (see ``app.asr.encoder``); ``full_window=True``
keeps openai-whisper's padding of every input to 30 s, to measure against. Weights may run in
bfloat16 on CPUs with native bf16 (about twice as fast; ``voicechat bench asr`` checks the WER).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np
import torch

from app.asr.encoder import FRAME, HOP, RealFramesEncoder, install_tail_sharing
from app.kernels.linear import Linear

logger = logging.getLogger(__name__)

SAMPLE_RATE = 16000
_MAX_TOKENS_PER_S = 12  # generous bound on the text of an utterance; stops runaway repetition early
# Above this, the text is dropped. openai-whisper also requires a poor decode (avg logprob < -1), but
# its confident "you" on silence or noise (no-speech 0.89-0.92, logprob -0.4 to -0.6) would then reach
# the LLM; real speech measured 0.01-0.18.
_NO_SPEECH_PROB = 0.6


@dataclass
class Recognition:
    """One decoded utterance."""

    text: str
    language: str
    no_speech_prob: float


def _features_task(full_window: Callable[[torch.Tensor], torch.Tensor]):
    """openai-whisper's DecodingTask, fed audio features that are already encoded.

    Language detection (language 'auto') insists on a full 30 s window of features, so it gets
    them padded by ``full_window``.
    """
    from whisper.decoding import DecodingTask

    class FeaturesTask(DecodingTask):
        def _get_audio_features(self, features: torch.Tensor) -> torch.Tensor:
            return features

        def _detect_language(self, features: torch.Tensor, tokens: torch.Tensor):
            return super()._detect_language(full_window(features), tokens)

    return FeaturesTask


def _use_fast_linears(model: torch.nn.Module) -> None:
    """Every linear layer and the decoder's vocabulary projection through :class:`app.kernels.linear.Linear`.

    On a CPU computing in fp32, Whisper's weights (exact in fp16) stay in fp16 for the AVX2 kernel:
    half the bytes per decoding step, the same products. Measured on such a CPU (AMD Zen 3) with 8
    utterances, with the per-head cross-attention keys of ``app.asr.encoder``: decoding one by one
    1.37 -> 0.90 s, as one batch 0.46 -> 0.32 s, same transcripts.
    Whisper's KV-cache hooks on the key/value layers still fire (only ``forward`` is replaced).
    """
    from whisper.model import Linear as WhisperLinear

    for module in model.modules():
        if isinstance(module, WhisperLinear):
            module.forward = Linear(module.weight.data, None if module.bias is None else module.bias.data)
    decoder = model.decoder
    vocabulary = Linear(decoder.token_embedding.weight.data)

    def decoder_forward(x: torch.Tensor, xa: torch.Tensor, kv_cache: dict | None = None) -> torch.Tensor:
        # whisper's TextDecoder.forward, with the projection onto the token embedding prepacked
        offset = next(iter(kv_cache.values())).shape[1] if kv_cache else 0
        x = decoder.token_embedding(x) + decoder.positional_embedding[offset : offset + x.shape[-1]]
        x = x.to(xa.dtype)
        for block in decoder.blocks:
            x = block(x, xa, mask=decoder.mask, kv_cache=kv_cache)
        return vocabulary(decoder.ln(x)).float()

    decoder.forward = decoder_forward


class WhisperTranscriber:
    """An openai-whisper model with its padding policy; not thread-safe (one caller at a time)."""

    def __init__(
        self,
        model: str | Path,
        *,
        language: str = "en",
        device: str | torch.device = "cpu",
        dtype: torch.dtype = torch.float32,
        full_window: bool = False,
    ) -> None:
        import whisper

        self._whisper = whisper
        self.model = whisper.load_model(str(model), device=device)
        if language not in ("auto", "en") and not self.model.is_multilingual:
            raise ValueError(f"Whisper model {model} is English-only; language {language!r} needs a multilingual model")
        self.language = None if language == "auto" else language
        self.device = device
        self.dtype = dtype
        if dtype != torch.float32:
            self.model.to(dtype)
            for module in self.model.modules():  # whisper's LayerNorm computes in float32 with float32 weights
                if isinstance(module, torch.nn.LayerNorm):
                    module.float()
        if torch.device(device).type == "cpu":
            _use_fast_linears(self.model)
        self.n_mels = self.model.dims.n_mels
        self.full_window = full_window
        self._window = whisper.audio.N_SAMPLES  # 30 s: the longest input the encoder accepts
        self._task = _features_task(self._full_window_features)
        self._encoder: RealFramesEncoder | None = None
        if not full_window:
            silence = self.mel(np.zeros(0, dtype=np.float32), self._window)
            self._encoder = RealFramesEncoder(self.model.encoder, silence)
            install_tail_sharing(self.model.decoder, self._encoder.silence)

    def mel(self, audio: np.ndarray, length: int) -> torch.Tensor:
        """Log-mel of ``audio`` padded with silence to ``length`` samples (cut to 30 s), as whisper computes it."""
        clip = torch.zeros(length + self._whisper.audio.N_FFT, dtype=torch.float32)
        real = torch.from_numpy(np.asarray(audio, dtype=np.float32)[:length])
        clip[: len(real)] = real
        mel = self._whisper.log_mel_spectrogram(clip, self.n_mels)[:, : length // HOP]
        return mel.to(self.device, self.dtype)

    def features(self, audios: list[np.ndarray]) -> torch.Tensor:
        """Audio features [B, frames, width] of a batch: what the decoder attends to."""
        if self.full_window:
            return self.model.encoder(torch.stack([self.mel(a, self._window) for a in audios]))
        frames = [max(1, min(-(-len(a) // FRAME), self._encoder.n_ctx)) for a in audios]
        if torch.device(self.device).type == "cpu":
            # compute-bound: padding the batch to its longest item would only add work, so each alone
            longest = max(frames)
            each = [self._encoder(self._real_mel(a, f)[None], [f])[0] for a, f in zip(audios, frames)]
            return torch.stack([torch.cat([item, self._encoder.silence[f:longest]]) for item, f in zip(each, frames)])
        return self._encoder(torch.stack([self._real_mel(a, f, max(frames)) for a, f in zip(audios, frames)]), frames)

    def _real_mel(self, audio: np.ndarray, frames: int, longest: int | None = None) -> torch.Tensor:
        """The mel of the first ``frames`` encoder frames of ``audio``, padded to ``longest`` frames plus one
        frame of silence margin for the convolutions."""
        return self.mel(audio[: frames * FRAME], min(self._window, ((longest or frames) + 1) * FRAME))

    def _full_window_features(self, features: torch.Tensor) -> torch.Tensor:
        """Features padded with the silence encoding to the whole 30 s window."""
        if self._encoder is None or features.shape[1] >= self._encoder.n_ctx:
            return features
        tail = self._encoder.silence[features.shape[1] :].expand(features.shape[0], -1, -1)
        return torch.cat([features, tail], dim=1)

    @torch.inference_mode()
    def transcribe_batch(self, audios: list[np.ndarray]) -> list[Recognition]:
        """Decode several 16 kHz float32 utterances in one encoder + greedy decoder call."""
        if not audios:
            return []
        if max(len(a) for a in audios) > self._window:
            logger.warning("utterance longer than 30 s: only its first 30 s are transcribed")
        longest_s = min(self._window, max(len(a) for a in audios)) / SAMPLE_RATE
        options = self._whisper.DecodingOptions(
            task="transcribe",
            language=self.language,
            without_timestamps=True,
            fp16=self.dtype == torch.float16,
            sample_len=min(self.model.dims.n_text_ctx // 2, int(16 + _MAX_TOKENS_PER_S * longest_s)),
        )
        results = self._task(self.model, options).run(self.features(audios))
        return [
            Recognition(
                text="" if r.no_speech_prob > _NO_SPEECH_PROB else r.text.strip(),
                language=r.language or (self.language or "en"),
                no_speech_prob=float(r.no_speech_prob),
            )
            for r in results
        ]
