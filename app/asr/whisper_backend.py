"""Batched Whisper transcription with openai-whisper (greedy decoding of several utterances at once).

By default only the utterance and a little silence after it are encoded (see ``app.asr.encoder``);
``full_window=True`` keeps openai-whisper's padding of every input to 30 s, to measure against. Every
decode passes the hallucination guards of ``app.asr.guards``; one that fails them is decoded again
the way offline openai-whisper decodes (the full window, then rising temperatures). The encoder may run in
bfloat16 on CPUs with native bf16 (about twice as fast; ``voicechat bench asr`` checks the WER); where the
CPU kernels run, the decoder computes in fp32 over 8-bit weights (``_use_fast_linears``).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import numpy as np
import torch

from app.asr.encoder import FRAME, HOP, MIN_ENCODED_S, SILENCE_AFTER_S, RealFramesEncoder, install_tail_sharing
from app.asr.guards import RunawayStop, Verdict, token_budget
from app.kernels import cpu_kernels
from app.kernels.linear import Linear

logger = logging.getLogger(__name__)

SAMPLE_RATE = 16000
# Decoded again, in this order, where a decode fails the guards: the whole 30 s window greedily (what
# offline openai-whisper decodes first), then openai-whisper's rising temperatures.
_FALLBACK_TEMPERATURES = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0)


@dataclass
class Recognition:
    """One decoded utterance."""

    text: str
    language: str
    no_speech_prob: float
    attempts: int = 1  # decodes it took: 1 unless the guards sent it to the fallback


@dataclass
class GuardedDecode:
    """One decode of one utterance and what the guards make of it."""

    result: Any  # whisper's DecodingResult
    verdict: Verdict
    stopped: bool  # a RunawayStop ended it


class Superseded(Exception):
    """A decode given up for work that came after it started (:meth:`WhisperTranscriber.transcribe_batch`'s
    ``give_up``)."""


class _GiveUp:
    """A whisper ``LogitFilter`` that ends the whole decode (raises :class:`Superseded`) at the next token once
    ``when()`` is true."""

    def __init__(self, when: Callable[[], bool]) -> None:
        self.when = when

    def apply(self, logits: torch.Tensor, tokens: torch.Tensor) -> None:
        if self.when():
            raise Superseded


def _features_task(full_window: Callable[[torch.Tensor], torch.Tensor]):
    """openai-whisper's DecodingTask, fed audio features that are already encoded, with a RunawayStop.

    Language detection (language 'auto') insists on a full 30 s window of features, so it gets
    them padded by ``full_window``.
    """
    from whisper.decoding import DecodingTask

    class FeaturesTask(DecodingTask):
        def __init__(self, model, options, budgets: list[int]) -> None:
            super().__init__(model, options)
            self.runaway = RunawayStop(self.sample_begin, self.tokenizer.eot, budgets)
            self.logit_filters.append(self.runaway)

        def _get_audio_features(self, features: torch.Tensor) -> torch.Tensor:
            return features

        def _detect_language(self, features: torch.Tensor, tokens: torch.Tensor):
            return super()._detect_language(full_window(features), tokens)

    return FeaturesTask


def _use_fast_linears(model: torch.nn.Module, eight_bit_decoder: bool) -> None:
    """Every linear layer and the decoder's vocabulary projection through :class:`app.kernels.linear.Linear`.

    On a CPU computing in fp32, Whisper's weights (exact in fp16) stay in fp16 for the AVX2 kernel:
    half the bytes per decoding step, the same products. Measured on such a CPU (AMD Zen 3) with 8
    utterances, with the per-head cross-attention keys of ``app.asr.encoder``: decoding one by one
    1.37 -> 0.90 s, as one batch 0.46 -> 0.32 s, same transcripts.
    ``eight_bit_decoder`` (a decoder computing in fp32 where the CPU kernels run): the decoder's weights at
    8 bits, which a decoding step streams in half the bytes of 16 bits and faster than oneDNN's bf16
    matmul (the 51865-token vocabulary projection 1.5 vs 4.7 ms on an AMD Zen 4 core).
    Whisper's KV-cache hooks on the key/value layers still fire (only ``forward`` is replaced).
    """
    from whisper.model import Linear as WhisperLinear

    decoder = model.decoder
    bits = 8 if eight_bit_decoder else 16
    in_decoder = {id(module) for module in decoder.modules()}
    for module in model.modules():
        if isinstance(module, WhisperLinear):
            bias = None if module.bias is None else module.bias.data
            module.forward = Linear(module.weight.data, bias, bits=bits if id(module) in in_decoder else 16)
    vocabulary = Linear(decoder.token_embedding.weight.data, bits=bits)

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
        min_encoded_s: float = MIN_ENCODED_S,
        silence_after_s: float = SILENCE_AFTER_S,
        decoder_bits: int = 8,
    ) -> None:
        """``decoder_bits`` 8: on a CPU with the kernels (app/kernels/), the decoder computes in fp32 over 8-bit
        weights whatever ``dtype`` the encoder takes (see ``_use_fast_linears``); 16: in ``dtype`` over 16-bit ones."""
        import whisper

        self._whisper = whisper
        self.model = whisper.load_model(str(model), device=device)
        if language not in ("auto", "en") and not self.model.is_multilingual:
            raise ValueError(f"Whisper model {model} is English-only; language {language!r} needs a multilingual model")
        self.language = None if language == "auto" else language
        codes = list(whisper.tokenizer.LANGUAGES)
        self.languages = frozenset(codes[: self.model.num_languages] if self.model.is_multilingual else ["en"])
        self.device = device
        self.dtype = dtype
        self.on_cpu = torch.device(device).type == "cpu"
        eight_bit_decoder = self.on_cpu and decoder_bits == 8 and cpu_kernels.load() is not None
        # One decoding step is a few small products, faster in fp32 on a CPU (bf16 pays off in the encoder)
        self.decoder_dtype = torch.float32 if eight_bit_decoder else dtype
        if dtype != torch.float32:
            (self.model.encoder if eight_bit_decoder else self.model).to(dtype)
            for module in self.model.modules():  # whisper's LayerNorm computes in float32 with float32 weights
                if isinstance(module, torch.nn.LayerNorm):
                    module.float()
        if self.on_cpu:
            _use_fast_linears(self.model, eight_bit_decoder)
        self.n_mels = self.model.dims.n_mels
        self.full_window = full_window
        self.min_encoded_s = min_encoded_s
        self.silence_after_s = silence_after_s
        self._window = whisper.audio.N_SAMPLES  # 30 s: the longest input the encoder accepts
        self._task = _features_task(self._full_window_features)
        self._encoder: RealFramesEncoder | None = None
        if not full_window:
            silence = self.mel(np.zeros(0, dtype=np.float32), self._window)
            self._encoder = RealFramesEncoder(self.model.encoder, silence)
            install_tail_sharing(self.model.decoder, self._encoder.silence.to(self.decoder_dtype))

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
        frames = [self._encoded_frames(len(a)) for a in audios]
        if self.on_cpu:
            # compute-bound: padding the batch to its longest item would only add work, so each alone
            longest = max(frames)
            each = [self._encoder(self._real_mel(a, f)[None], [f])[0] for a, f in zip(audios, frames)]
            return torch.stack([torch.cat([item, self._encoder.silence[f:longest]]) for item, f in zip(each, frames)])
        return self._encoder(torch.stack([self._real_mel(a, f, max(frames)) for a, f in zip(audios, frames)]), frames)

    def _encoded_frames(self, samples: int) -> int:
        """Encoder frames for an utterance of ``samples``: the audio, then ``silence_after_s`` of silence, at least
        ``min_encoded_s`` in all (see ``app.asr.encoder``), at most the 30 s window."""
        wanted = max(samples + int(self.silence_after_s * SAMPLE_RATE), int(self.min_encoded_s * SAMPLE_RATE), 1)
        return min(-(-wanted // FRAME), self._encoder.n_ctx)

    def _real_mel(self, audio: np.ndarray, frames: int, longest: int | None = None) -> torch.Tensor:
        """The mel of the first ``frames`` encoder frames of ``audio``, padded to ``longest`` frames plus one
        frame of silence margin for the convolutions."""
        return self.mel(audio[: frames * FRAME], min(self._window, ((longest or frames) + 1) * FRAME))

    def _full_window_features(self, features: torch.Tensor) -> torch.Tensor:
        """Features padded with the silence encoding to the whole 30 s window."""
        if self._encoder is None or features.shape[1] >= self._encoder.n_ctx:
            return features
        tail = self._encoder.silence[features.shape[1] :].to(features.dtype).expand(features.shape[0], -1, -1)
        return torch.cat([features, tail], dim=1)

    def check_language(self, language: str | None) -> str | None:
        """``language`` as the decoder takes it: a code this model transcribes, None (the model's default) or 'auto'
        (detected per utterance, returned as None); ValueError names what it cannot transcribe."""
        if language is None:
            return self.language
        if language == "auto":
            if not self.model.is_multilingual:
                raise ValueError("this Whisper model is English-only: it cannot detect a language")
            return None
        if language not in self.languages:
            known = "only English ('en')" if not self.model.is_multilingual else f"{len(self.languages)} languages"
            raise ValueError(f"Whisper cannot transcribe {language!r} with this model: it knows {known} (ISO 639-1 codes)")
        return language

    def warm_up(self) -> None:
        """Decode a second of silence as a partial (no fallback decodes): the first decode on a thread pays for
        setting up its kernels, four times a short utterance's decode on a CPU."""
        self.transcribe_batch([np.zeros(SAMPLE_RATE, dtype=np.float32)], [False])

    @torch.inference_mode()
    def transcribe_batch(self, audios: list[np.ndarray], finals: list[bool] | None = None,
                         languages: list[str | None] | None = None,
                         give_up: Callable[[], bool] | None = None) -> list[Recognition]:
        """Decode several 16 kHz float32 utterances in one encoder + greedy decoder call.

        A final utterance (all by default; ``finals`` says which) whose decode fails the guards
        (``app.asr.guards``) is decoded again as offline Whisper does it: over the whole 30 s window,
        greedily, then at rising temperatures. A partial one that fails gets no text instead: the
        fallback's full-window decodes cost several first passes and would hold up the finals queued
        behind it, for a transcript its final replaces anyway.
        ``languages``: each utterance's language (see :meth:`check_language`; None: the model's default). The
        utterances share the encoder pass; the decoder, whose prompt names the language, runs once per language.
        ``give_up``: asked before the encoder and at every decoder step; once it is true the batch is abandoned
        (:class:`Superseded`).
        """
        if not audios:
            return []
        if max(len(a) for a in audios) > self._window:
            logger.warning("utterance longer than 30 s: only its first 30 s are transcribed")
        finals = finals or [True] * len(audios)
        wanted = [self.check_language(language) for language in languages or [None] * len(audios)]
        if give_up is not None and give_up():
            raise Superseded
        features = self.features(audios)
        decodes: list[GuardedDecode] = [None] * len(audios)  # type: ignore[list-item]
        attempts = [1] * len(audios)
        for language in dict.fromkeys(wanted):
            group = [i for i, each in enumerate(wanted) if each == language]
            decoded = self.decode(features[group], self._budgets([audios[i] for i in group]), language=language,
                                  trimmed=not self.full_window, give_up=give_up)  # fmt: skip
            for i, decode in zip(group, decoded):
                decodes[i] = decode
            retry = [i for i in group if decodes[i].verdict.failed and finals[i]]
            if retry:
                for i, (decode, tries) in zip(retry, self._fallback([audios[i] for i in retry], language)):
                    decodes[i], attempts[i] = decode, 1 + tries
        return [
            Recognition(
                text="" if d.verdict.silent or (d.verdict.failed and not final) else d.result.text.strip(),
                language=d.result.language or (language or "en"),
                no_speech_prob=float(d.result.no_speech_prob),
                attempts=tries,
            )
            for d, tries, final, language in zip(decodes, attempts, finals, wanted)
        ]

    def _fallback(self, audios: list[np.ndarray], language: str | None) -> list[tuple[GuardedDecode, int]]:
        """Decode ``audios`` over the full window at ``_FALLBACK_TEMPERATURES`` until each passes the guards.

        One that never passes keeps its most likely decode that no stop cut off. Returns the decode
        and how many were tried, per utterance.
        """
        features = self.model.encoder(torch.stack([self.mel(a, self._window) for a in audios]))
        temperatures = _FALLBACK_TEMPERATURES[1:] if self.full_window else _FALLBACK_TEMPERATURES  # greedy: done
        tried: list[list[GuardedDecode]] = [[] for _ in audios]
        pending = list(range(len(audios)))
        for temperature in temperatures:
            decoded = self.decode(features[pending], self._budgets([audios[i] for i in pending]), temperature,
                                  language=language)
            for i, decode in zip(pending, decoded):
                tried[i].append(decode)
            pending = [i for i in pending if tried[i][-1].verdict.failed]
            if not pending:
                break
        chosen = []
        for decodes in tried:
            passed = [d for d in decodes if not d.verdict.failed]
            best = passed[0] if passed else max(decodes, key=lambda d: (not d.stopped, d.result.avg_logprob))
            chosen.append((best, len(decodes)))
        return chosen

    def _budgets(self, audios: list[np.ndarray]) -> list[int]:
        return [token_budget(min(len(a), self._window), SAMPLE_RATE) for a in audios]

    def decode(self, features: torch.Tensor, budgets: list[int], temperature: float = 0.0, *,
               language: str | None, trimmed: bool = False,
               give_up: Callable[[], bool] | None = None) -> list[GuardedDecode]:  # fmt: skip
        """One decoding pass over encoded ``features`` (``budgets``: most tokens per utterance) in ``language`` (as
        :meth:`check_language` returns it; None: detected), judged by the guards; :class:`Superseded` once
        ``give_up`` is true."""
        options = self._whisper.DecodingOptions(
            task="transcribe",
            language=language,
            temperature=temperature,
            without_timestamps=True,
            fp16=self.decoder_dtype == torch.float16,
            sample_len=min(self.model.dims.n_text_ctx // 2, max(budgets) + 1),  # the step that ends a row at its budget
        )
        task = self._task(self.model, options, budgets)
        if give_up is not None:
            task.logit_filters.append(_GiveUp(give_up))
        decodes = []
        for i, r in enumerate(task.run(features.to(self.decoder_dtype))):
            stopped = i in task.runaway.stopped
            verdict = Verdict.of(r.text, r.avg_logprob, r.no_speech_prob, r.compression_ratio, stopped,
                                 trimmed=trimmed)
            decodes.append(GuardedDecode(r, verdict, stopped))
        return decodes
