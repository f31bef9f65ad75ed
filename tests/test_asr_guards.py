"""Hallucination guards on recorded human speech (Debian's asterisk prompts) and their rules in isolation.

The bare trimmed encoder (only the utterance's frames, no silence after it) is the configuration that
loops on these clips ("Zero. Zero. Zero. Zero.", "B, B, B."): each guard is shown catching a real
decode of it, and the served transcriber is shown getting the same clips right.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
import torch

from app.asr import WhisperTranscriber, create_transcriber
from app.asr.guards import (
    COMPRESSION_RATIO_LIMIT,
    REPEAT_RUN,
    RunawayStop,
    Verdict,
    ends_on_a_repeated_word,
    repeats_in_a_row,
    token_budget,
)
from app.bench.asr import streamed_utterances
from app.bench.speech_samples import asterisk_samples, repeats_last_word, speech_bounds, whisper_normalizer

# prompts the bare trimmed encoder loops on: a word over and over, a word said twice, a sentence over and over
LOOPING = ["digits/0", "digits/7", "letters/c", "digits/today"]
TWICE = ["letters/b", "phonetic/j_p", "phonetic/l_p"]
SENTENCE_LOOP = "dictate/record_help"
SENTENCE = "followme/status"


@pytest.fixture(scope="module")
def clips(settings) -> dict[str, tuple[np.ndarray, str]]:
    """Each clip as the server's endpointer cuts it from a stream (pre-roll, vad_pause_ms of silence after)."""
    samples = asterisk_samples(names=LOOPING + TWICE + [SENTENCE_LOOP, SENTENCE, "letters/e", "letters/f"])
    return {s.name: (streamed_utterances(settings, s.audio)[0], s.text) for s in samples}


@pytest.fixture(scope="module")
def base_settings(settings):
    return settings.model_copy(update={"asr_model": "base"})  # the GPU default; these clips were picked with it


@pytest.fixture(scope="module")
def base_pt(base_settings):
    from app.models.prepare import prepare_models

    return prepare_models(base_settings).whisper_pt


@pytest.fixture(scope="module")
def served(base_settings, base_pt) -> WhisperTranscriber:
    return create_transcriber(base_settings, SimpleNamespace(whisper_pt=base_pt))


@pytest.fixture(scope="module")
def bare(base_pt, served) -> WhisperTranscriber:
    """The trimmed encoder without silence after the speech: the setting that hallucinates."""
    return WhisperTranscriber(base_pt, dtype=served.dtype, min_encoded_s=0.0, silence_after_s=0.0)


def _first_pass(transcriber: WhisperTranscriber, audio: np.ndarray, budget: int | None = None):
    features = transcriber.features([audio])
    budgets = [budget or token_budget(len(audio), 16000)]
    return transcriber.decode(features, budgets, language=transcriber.language, trimmed=True)[0]


def _same(said: str, heard: str) -> bool:
    normalize = whisper_normalizer()
    return normalize(said) == normalize(heard)


# --- on real clips ---


def test_served_transcriber_hears_the_looping_clips_right(served, clips):
    names = LOOPING + TWICE + [SENTENCE_LOOP]
    heard = served.transcribe_batch([clips[name][0] for name in names])
    assert [(name, r.text) for name, r in zip(names, heard) if not _same(clips[name][1], r.text)] == []


def test_repeated_ngram_stop_cuts_a_real_loop_and_the_fallback_repairs_it(bare, clips):
    decodes = {name: _first_pass(bare, clips[name][0]) for name in LOOPING}
    stopped = [name for name, d in decodes.items() if d.stopped]
    assert stopped, "the bare trimmed encoder no longer loops on these clips: pick others"
    for name in stopped:
        first = decodes[name]
        assert first.verdict.failed and repeats_in_a_row(first.result.tokens)
        assert len(first.result.tokens) < token_budget(len(clips[name][0]), 16000)  # cut at the repeat, not the budget
    final = bare.transcribe_batch([clips[name][0] for name in stopped])
    assert all(r.attempts > 1 for r in final)
    assert [r.text for r, name in zip(final, stopped) if not _same(clips[name][1], r.text)] == []


async def test_only_finals_get_the_fallback_decode(bare, clips):
    """A partial transcript that fails the guards gets no text and no fallback; the same audio as a final gets both."""
    from app.asr import SpeechRecognizer

    failing = [name for name in LOOPING if _first_pass(bare, clips[name][0]).verdict.failed]
    assert failing, "the bare trimmed encoder no longer fails the guards on these clips: pick others"
    audio, said = clips[failing[0]]
    recognizer = SpeechRecognizer(bare)
    await recognizer.start()
    try:
        partial = await recognizer.transcribe(audio, final=False, session_id="partial")
        final = await recognizer.transcribe(audio, final=True, session_id="final")
    finally:
        await recognizer.stop()
    assert partial is not None and (partial.attempts, partial.text) == (1, "")
    assert final.attempts > 1 and _same(said, final.text)
    assert recognizer.stats()["asr_fallbacks"] == 1


def test_token_budget_ends_a_real_decode(served, clips):
    audio, said = clips[SENTENCE]
    whole = _first_pass(served, audio)
    assert _same(said, whole.result.text) and not whole.stopped
    cut = _first_pass(served, audio, budget=4)
    assert cut.stopped and cut.verdict.failed
    assert len(cut.result.tokens) <= 4


def test_a_repeated_last_word_sends_the_utterance_to_the_fallback(bare, clips):
    decodes = {name: _first_pass(bare, clips[name][0]) for name in TWICE}
    trailing = [name for name, d in decodes.items() if not d.stopped and ends_on_a_repeated_word(d.result.text)]
    assert trailing, "no clip ends on a repeated word with the bare encoder: pick others"
    assert all(decodes[name].verdict.failed for name in trailing)
    final = bare.transcribe_batch([clips[name][0] for name in trailing])
    assert all(r.attempts > 1 for r in final)
    assert [r.text for r, name in zip(final, trailing) if not _same(clips[name][1], r.text)] == []


def test_a_looping_sentence_fails_the_compression_check(bare, clips):
    audio, said = clips[SENTENCE_LOOP]
    r = _first_pass(bare, audio).result
    assert r.compression_ratio > COMPRESSION_RATIO_LIMIT  # too long a loop for the n-gram stop; this catches it alone
    assert Verdict.of(r.text, r.avg_logprob, r.no_speech_prob, r.compression_ratio, False, trimmed=False).failed
    final = bare.transcribe_batch([audio])[0]
    assert final.attempts > 1 and _same(said, final.text)


def test_no_text_where_a_recording_has_no_speech(served, clips):
    """The room tone before and after the speech of real recordings, stitched to 2 s: no words."""
    quiet = []
    for audio, _ in clips.values():
        start, end = speech_bounds(audio)
        quiet += [audio[: int(start * 16000)], audio[int(end * 16000) + 1600 :]]
    room_tone = np.concatenate(quiet)
    room_tone = np.tile(room_tone, -(-32000 // len(room_tone)))[:32000]
    assert [r.text for r in served.transcribe_batch([room_tone, np.zeros(32000, np.float32)])] == ["", ""]
    heard = served.transcribe_batch([clips["letters/e"][0], clips["letters/f"][0]])
    assert [whisper_normalizer()(r.text) for r in heard] == ["e", "f"]  # one letter is speech, not silence


# --- the rules alone ---


def test_repeats_in_a_row():
    assert repeats_in_a_row([7, 1, 1, 1, 1])
    assert not repeats_in_a_row([7, 1, 1, 1])
    assert repeats_in_a_row([9] + [3, 4, 5] * REPEAT_RUN)
    assert not repeats_in_a_row([3, 4, 5, 3, 4, 5, 3, 4, 6, 3, 4, 5])
    assert not repeats_in_a_row([])


def test_ends_on_a_repeated_word():
    assert ends_on_a_repeated_word("Front left, left.")
    assert ends_on_a_repeated_word("Side, left, left")
    assert not ends_on_a_repeated_word("Front left.")
    assert not ends_on_a_repeated_word("left")
    assert repeats_last_word("front left", "Front left, left.")
    assert not repeats_last_word("bye bye", "Bye, bye.")


def test_token_budget_grows_with_the_audio():
    assert token_budget(0, 16000) == 16
    assert token_budget(16000 * 10, 16000) == 16 + 120


def test_runaway_stop_forces_end_of_text():
    stop = RunawayStop(sample_begin=2, end_of_text=0, budgets=[3, 10, 10])
    tokens = torch.tensor([[5, 5, 1, 2, 3], [5, 5, 4, 4, 4], [5, 5, 1, 2, 0]])
    logits = torch.zeros(3, 6)
    tokens[1] = torch.tensor([5, 5, 4, 4, 4])
    stop.apply(logits, torch.cat([tokens, torch.tensor([[4], [4], [0]])], dim=1))
    assert stop.stopped == {0, 1}  # over its budget; "4" four times in a row; the third had ended
    assert logits[0].argmax() == 0 and logits[1].argmax() == 0 and torch.isinf(logits[0, 1])
    assert not torch.isinf(logits[2]).any()


def test_verdict_rules():
    assert Verdict.of("you", -0.5, 0.9, 1.0, False, trimmed=True).silent  # sure there is no speech
    assert Verdict.of("uh", -1.5, 0.7, 1.0, False, trimmed=True).silent  # openai-whisper's rule
    unsure = Verdict.of("B.", -0.5, 0.7, 1.0, False, trimmed=True)
    assert not unsure.silent and unsure.failed  # the trimmed encoder unsure of speech: the full window decides
    assert Verdict.of("B.", -0.5, 0.7, 1.0, False, trimmed=False) == Verdict(silent=False, failed=False)
    assert Verdict.of("a b c", -0.2, 0.1, 2.6, False, trimmed=True).failed
    assert Verdict.of("maybe", -1.2, 0.1, 1.0, False, trimmed=True).failed
    assert Verdict.of("Side, left, left.", -0.2, 0.1, 1.0, False, trimmed=True).failed
    assert not Verdict.of("Bye, bye.", -0.2, 0.1, 1.0, False, trimmed=False).failed
    assert Verdict.of("six six six six", -0.2, 0.1, 1.0, True, trimmed=False).failed
