"""Whisper transcription and the shared batching recogniser, on real speech with the packaged model."""

from __future__ import annotations

import asyncio
import threading
from types import SimpleNamespace

import numpy as np
import pytest

import torch

from app.asr import SpeechRecognizer, Transcript, WhisperTranscriber, create_recognizer, create_transcriber
from app.asr.encoder import _attend_with_shared_tail, split_keys, split_values
from app.bench.speech_samples import (
    SENTENCES,
    audioeval_samples,
    espeak_speech,
    normalize_words,
    piper_speech,
    word_error_rate,
)

# Bounds: tiny.en measured 0.00-0.05 on the clean samples and 0.10-0.16 on espeak-ng's robotic voice (base: less).
CLEAN_WER_BOUND = 0.10
ESPEAK_WER_BOUND = 0.25


@pytest.fixture(scope="module")
def transcriber(settings, prepared) -> WhisperTranscriber:
    return create_transcriber(settings, prepared)  # as served: real frames only, bf16 where the CPU has it


@pytest.fixture(scope="module")
def clean_speech() -> list[tuple[np.ndarray, str]]:
    recorded = [(s.audio, s.text) for s in audioeval_samples("en")]
    return recorded + [(piper_speech(text), text) for text in SENTENCES[:5]]


def test_clean_speech_word_error_rate(transcriber, clean_speech):
    hypotheses = [transcriber.transcribe_batch([audio])[0].text for audio, _ in clean_speech]
    assert word_error_rate([text for _, text in clean_speech], hypotheses) <= CLEAN_WER_BOUND, hypotheses


def test_espeak_speech_word_error_rate(transcriber):
    texts = SENTENCES[5:9]
    hypotheses = [r.text for r in transcriber.transcribe_batch([espeak_speech(t) for t in texts])]
    assert word_error_rate(texts, hypotheses) <= ESPEAK_WER_BOUND, hypotheses


def test_batched_decode_equals_single_decodes(transcriber, clean_speech):
    audios = [audio for audio, _ in clean_speech[:6]]  # lengths from 1.1 s to 3.5 s: padding differs
    single = [transcriber.transcribe_batch([audio])[0].text for audio in audios]
    batched = [r.text for r in transcriber.transcribe_batch(audios)]
    assert [normalize_words(t) for t in batched] == [normalize_words(t) for t in single]


def test_full_window_mode_transcribes_too(settings, prepared, clean_speech):
    full = create_transcriber(settings, prepared, full_window=True)
    audio, text = clean_speech[2]
    assert word_error_rate([text], [full.transcribe_batch([audio])[0].text]) <= 0.2


def test_float32_real_frames_match_the_served_transcripts(prepared, transcriber, clean_speech):
    exact = WhisperTranscriber(prepared.whisper_pt, language="en", dtype=torch.float32)
    audios = [audio for audio, _ in clean_speech[:4]]
    assert [normalize_words(r.text) for r in exact.transcribe_batch(audios)] == [
        normalize_words(r.text) for r in transcriber.transcribe_batch(audios)
    ]


def test_eight_bit_decoder_keeps_the_transcripts(prepared, transcriber, clean_speech):
    from app.kernels import cpu_kernels

    if cpu_kernels.load() is None:
        pytest.skip("the CPU kernels do not run here: the decoder keeps its 16-bit weights")
    assert transcriber.decoder_dtype == torch.float32
    assert transcriber.model.decoder.blocks[0].mlp[0].forward.weight_format == "q8"
    sixteen = WhisperTranscriber(prepared.whisper_pt, language="en", dtype=transcriber.dtype, decoder_bits=16)
    audios = [audio for audio, _ in clean_speech]
    for batch in [[audio] for audio in audios[:4]], [audios]:  # one by one and as one batch: both attentions
        heard = [[normalize_words(r.text) for part in batch for r in t.transcribe_batch(part)] for t in (sixteen, transcriber)]
        assert heard[0] == heard[1]


def test_shared_tail_attention_equals_attention_over_all_frames():
    torch.manual_seed(0)
    batch, n_q, own, tail, heads, width = 3, 2, 7, 11, 4, 32
    q, k, v = torch.randn(batch, n_q, width), torch.randn(batch, own, width), torch.randn(batch, own, width)
    tail_k, tail_v = torch.randn(tail, width), torch.randn(tail, width)
    merged = _attend_with_shared_tail(
        q, split_keys(k, heads), split_values(v, heads), split_keys(tail_k[None], heads)[0],
        split_values(tail_v[None], heads)[0], heads,
    )

    def split(t: torch.Tensor) -> torch.Tensor:
        return t.view(batch, -1, heads, width // heads).transpose(1, 2)

    full_k = torch.cat([k, tail_k.expand(batch, -1, -1)], dim=1)
    full_v = torch.cat([v, tail_v.expand(batch, -1, -1)], dim=1)
    reference = torch.nn.functional.scaled_dot_product_attention(split(q), split(full_k), split(full_v))
    assert torch.allclose(merged, reference.transpose(1, 2).reshape(batch, n_q, width), atol=1e-5)


def test_silence_gives_empty_text(transcriber):
    assert transcriber.transcribe_batch([np.zeros(32000, dtype=np.float32)])[0].text == ""


@pytest.fixture(scope="module")
def tiny_en(settings) -> str:
    from app.models.prepare import prepare_models

    return prepare_models(settings.model_copy(update={"asr_model": "tiny.en"})).whisper_pt


async def test_english_only_model_rejects_other_languages(tiny_en):
    with pytest.raises(ValueError, match="multilingual"):
        WhisperTranscriber(tiny_en, language="de")
    english = WhisperTranscriber(tiny_en)
    assert english.languages == {"en"}
    with pytest.raises(ValueError, match="only English"):
        english.transcribe_batch([np.zeros(16000, dtype=np.float32)], languages=["fr"])
    recognizer = SpeechRecognizer(english)
    await recognizer.start()
    try:  # refused before it is queued: it cannot fail the other sessions' batch
        with pytest.raises(ValueError, match="only English"):
            await recognizer.transcribe(np.zeros(16000, dtype=np.float32), language="fr")
        assert recognizer.stats()["asr_requests"] == 0
    finally:
        await recognizer.stop()


def test_tiny_en_stays_selectable_by_name(settings, tiny_en, clean_speech):
    tiny = create_transcriber(settings.model_copy(update={"asr_model": "tiny.en"}), SimpleNamespace(whisper_pt=tiny_en))
    hypotheses = [r.text for r in tiny.transcribe_batch([audio for audio, _ in clean_speech])]
    assert word_error_rate([text for _, text in clean_speech], hypotheses) <= CLEAN_WER_BOUND, hypotheses


# --- the shared recogniser ---


@pytest.fixture(scope="module")
def recognizer_factory(transcriber):
    def make(**kwargs) -> SpeechRecognizer:
        return SpeechRecognizer(transcriber, **kwargs)

    return make


async def test_requests_of_several_sessions_share_one_batch(recognizer_factory, clean_speech):
    recognizer = recognizer_factory(batch_window_ms=200, max_batch=8)
    await recognizer.start()
    try:
        items = clean_speech[:4]
        results = await asyncio.gather(
            *(recognizer.transcribe(audio, session_id=f"s{i}") for i, (audio, _) in enumerate(items))
        )
        assert all(isinstance(r, Transcript) for r in results)
        assert [r.batch_size for r in results] == [4, 4, 4, 4]
        assert word_error_rate([t for _, t in items], [r.text for r in results]) <= CLEAN_WER_BOUND
        assert results[0].duration_s == pytest.approx(len(items[0][0]) / 16000)
        assert all(r.asr_s > 0 for r in results)
        stats = recognizer.stats()
        assert stats["asr_batches"] == 1 and stats["asr_utterances"] == 4
    finally:
        await recognizer.stop()


async def test_finals_go_first_and_partials_are_dropped_under_load(recognizer_factory, clean_speech):
    recognizer = recognizer_factory(batch_window_ms=200, max_batch=2)
    await recognizer.start()
    try:
        audio = clean_speech[1][0]
        partials = [recognizer.transcribe(audio, final=False, session_id=f"p{i}") for i in range(2)]
        finals = [recognizer.transcribe(audio, final=True, session_id=f"f{i}") for i in range(2)]
        *partial_results, final_a, final_b = await asyncio.gather(*partials, *finals)
        assert partial_results == [None, None]  # no room left in the batch: dropped, not delayed
        assert final_a.batch_size == final_b.batch_size == 2
        assert recognizer.stats()["asr_partials_dropped"] == 2
    finally:
        await recognizer.stop()


async def test_a_long_partial_does_not_slow_down_a_short_final(recognizer_factory, clean_speech):
    recognizer = recognizer_factory(batch_window_ms=200, max_batch=8, partials_join_finals=True)  # as on a GPU
    await recognizer.start()
    try:
        short = clean_speech[1][0]  # ~1 s
        long = np.concatenate([audio for audio, _ in clean_speech[:4]])  # ~10 s
        partial, final = await asyncio.gather(
            recognizer.transcribe(long, final=False, session_id="talker"),
            recognizer.transcribe(short, final=True, session_id="done"),
        )
        assert partial is None and final.batch_size == 1
        partial, final = await asyncio.gather(  # a partial as short as the final fills the batch
            recognizer.transcribe(short, final=False, session_id="talker"),
            recognizer.transcribe(short, final=True, session_id="done"),
        )
        assert partial is not None and partial.text and final.batch_size == partial.batch_size == 2
    finally:
        await recognizer.stop()


async def test_on_a_cpu_a_final_never_shares_its_batch_with_a_partial(recognizer_factory, clean_speech):
    recognizer = recognizer_factory(batch_window_ms=200, max_batch=8)
    assert not recognizer.partials_join_finals  # Whisper on the CPU here
    await recognizer.start()
    try:
        short = clean_speech[1][0]
        partial, final = await asyncio.gather(
            recognizer.transcribe(short, final=False, session_id="talker"),
            recognizer.transcribe(short, final=True, session_id="done"),
        )
        assert partial is None and final.batch_size == 1
        assert recognizer.stats()["asr_partials_dropped"] == 1
    finally:
        await recognizer.stop()


async def test_a_final_that_comes_while_partials_decode_ends_their_batch(recognizer_factory, clean_speech, monkeypatch):
    recognizer = recognizer_factory(batch_window_ms=0, max_batch=8)
    await recognizer.start()
    decoding, final_queued = threading.Event(), threading.Event()
    decode = recognizer.transcriber.decode

    def held(*args, **kwargs):  # the partials' decoder starts only once the final is queued behind them
        decoding.set()
        final_queued.wait(10)
        return decode(*args, **kwargs)

    monkeypatch.setattr(recognizer.transcriber, "decode", held)
    try:
        long = np.concatenate([audio for audio, _ in clean_speech[:4]])  # ~10 s: many tokens to decode
        partial = asyncio.ensure_future(recognizer.transcribe(long, final=False, session_id="talker"))
        assert await asyncio.to_thread(decoding.wait, 10)
        final = asyncio.ensure_future(recognizer.transcribe(clean_speech[1][0], final=True, session_id="done"))
        await asyncio.sleep(0.05)
        final_queued.set()
        assert await partial is None  # abandoned at its first token, not decoded to the end
        spoken = await final
        assert spoken.batch_size == 1 and spoken.text
        assert recognizer.stats()["asr_partials_dropped"] == 1 and recognizer.stats()["asr_batches"] == 1
    finally:
        final_queued.set()
        await recognizer.stop()


async def test_a_newer_partial_supersedes_an_older_one(recognizer_factory, clean_speech):
    recognizer = recognizer_factory(batch_window_ms=200, max_batch=8)
    await recognizer.start()
    try:
        short, longer = clean_speech[1][0], clean_speech[0][0]
        older = recognizer.transcribe(short, final=False, session_id="s")
        newer = recognizer.transcribe(longer, final=False, session_id="s")
        old_result, new_result = await asyncio.gather(older, newer)
        assert old_result is None
        assert new_result is not None and new_result.text
    finally:
        await recognizer.stop()


async def test_cancelled_requests_are_not_decoded(recognizer_factory, clean_speech):
    recognizer = recognizer_factory(batch_window_ms=300, max_batch=8)
    await recognizer.start()
    try:
        audio = clean_speech[1][0]
        speculative = asyncio.create_task(recognizer.transcribe(audio, session_id="a"))
        kept = asyncio.create_task(recognizer.transcribe(audio, session_id="b"))
        await asyncio.sleep(0.05)
        speculative.cancel()
        result = await kept
        assert result.batch_size == 1
        assert recognizer.stats()["asr_utterances"] == 1
    finally:
        await recognizer.stop()


async def test_lifecycle_errors_are_clear(recognizer_factory):
    recognizer = recognizer_factory()
    with pytest.raises(RuntimeError, match="not started"):
        await recognizer.transcribe(np.zeros(1600, dtype=np.float32))
    await recognizer.start()
    empty = await recognizer.transcribe(np.zeros(0, dtype=np.float32))
    assert empty.text == "" and empty.duration_s == 0.0
    await recognizer.stop()
    await recognizer.stop()  # idempotent


async def test_create_recognizer_from_settings(settings, prepared, clean_speech):
    recognizer = create_recognizer(settings.model_copy(update={"asr_batch_window_ms": 5.0}), prepared)
    await recognizer.start()
    try:
        audio, text = clean_speech[0]
        result = await recognizer.transcribe(audio)
        assert word_error_rate([text], [result.text]) <= 0.2
        assert result.language == "en"
    finally:
        await recognizer.stop()


def test_language_detection_loads_the_multilingual_model_and_a_batch_mixes_languages(settings):
    from app.models.prepare import prepare_models

    multilingual = settings.model_copy(update={"asr_model": "auto", "asr_language": "auto"})
    assert multilingual.whisper_model == "base"
    transcriber = create_transcriber(multilingual, prepare_models(multilingual))
    spanish = {s.name: s for s in audioeval_samples("es")}
    french = {s.name: s for s in audioeval_samples("fr")}
    results = transcriber.transcribe_batch([spanish["pangrama"].audio, french["comptage"].audio])
    assert [r.language for r in results] == ["es", "fr"]
    assert "kiwi" in results[0].text.lower()
    assert "10" in results[1].text or "dix" in results[1].text.lower()
    # each utterance in the language asked for (None: the default, here detected), in one batch
    mixed = transcriber.transcribe_batch([spanish["pangrama"].audio, french["comptage"].audio, spanish["pangrama"].audio],
                                         languages=["es", "fr", None])  # fmt: skip
    assert [r.language for r in mixed] == ["es", "fr", "es"]
    assert [r.text for r in mixed] == [results[0].text, results[1].text, results[0].text]


async def test_start_returns_once_whisper_is_warm_on_the_worker_thread(transcriber, monkeypatch):
    warmed_on = []
    warm_up = transcriber.warm_up

    def counted() -> None:
        warmed_on.append(threading.current_thread().name)
        warm_up()

    monkeypatch.setattr(transcriber, "warm_up", counted)
    recognizer = SpeechRecognizer(transcriber)
    await recognizer.start()
    try:  # on the thread that decodes the sessions' speech, and counted as none of their batches
        assert warmed_on == ["asr-worker"]
        assert recognizer.stats()["asr_batches"] == 0
    finally:
        await recognizer.stop()


async def test_a_failed_warm_up_still_starts_the_recogniser(transcriber, monkeypatch, clean_speech):
    def broken() -> None:
        raise RuntimeError("no kernels")

    monkeypatch.setattr(transcriber, "warm_up", broken)
    recognizer = SpeechRecognizer(transcriber)
    await recognizer.start()
    try:
        heard = await recognizer.transcribe(clean_speech[1][0], session_id="s")
        assert heard.text
    finally:
        await recognizer.stop()
