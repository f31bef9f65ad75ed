"""Endpointing on real speech (espeak-ng and recorded samples) with the packaged silero-vad model."""

from __future__ import annotations

import numpy as np
import pytest

from app.bench.speech_samples import audioeval_samples, espeak_speech, speech_bounds
from app.vad import Endpointer, PartialAudio, SpeechPaused, SpeechResumed, SpeechStarted, SpeechStopped

RATE = 16000
FRAME_S = 0.032


def _silence(seconds: float) -> np.ndarray:
    return np.zeros(int(RATE * seconds), dtype=np.float32)


def _run(endpointer: Endpointer, audio: np.ndarray, chunk: int = 320) -> list:
    events = []
    for at in range(0, len(audio), chunk):
        events += endpointer.feed(audio[at : at + chunk])
    return events


def _of(events: list, kind: type) -> list:
    return [e for e in events if isinstance(e, kind)]


@pytest.fixture(scope="module")
def sentence() -> np.ndarray:
    return espeak_speech("The quick brown fox jumps over the lazy dog near the river bank.")


@pytest.fixture(scope="module")
def question() -> np.ndarray:
    return espeak_speech("Could you tell me what time it is?")


def test_two_utterances_separated_by_silence_give_two_endpoints(settings, sentence, question):
    first, second = audioeval_samples()[0].audio, question
    audio = np.concatenate([_silence(0.5), first, _silence(1.2), second, _silence(1.0)])
    events = _run(Endpointer(settings), audio)

    kinds = [type(e) for e in events if not isinstance(e, (PartialAudio, SpeechPaused, SpeechResumed))]
    assert kinds == [SpeechStarted, SpeechStopped, SpeechStarted, SpeechStopped]
    stops = _of(events, SpeechStopped)
    offsets = [0.5, 0.5 + len(first) / RATE + 1.2]
    for stop, clip, offset in zip(stops, [first, second], offsets):
        true_start, true_end = (offset + t for t in speech_bounds(clip))
        assert abs(stop.start_s - true_start) < 0.15
        assert abs(stop.end_s - true_end) < 0.15
        assert stop.at_s - stop.end_s == pytest.approx(settings.vad_silence_ms / 1000, abs=FRAME_S + 1e-6)
        # the audio keeps the pre-roll before the speech and a short tail of silence after it
        assert stop.audio.dtype == np.float32
        kept = len(stop.audio) / RATE
        assert kept >= (stop.end_s - stop.start_s) + settings.vad_preroll_ms / 1000 - FRAME_S


def test_chunk_size_does_not_change_the_events(settings, question):
    audio = np.concatenate([_silence(0.3), question, _silence(0.8)])
    small = _run(Endpointer(settings), audio, chunk=160)
    big = Endpointer(settings).feed(audio)
    odd = _run(Endpointer(settings), audio, chunk=1234)
    signature = [[(type(e).__name__, round(e.at_s, 3)) for e in run] for run in (small, big, odd)]
    assert signature[0] == signature[1] == signature[2]
    assert np.array_equal(_of(small, SpeechStopped)[0].audio, _of(big, SpeechStopped)[0].audio)


def test_stop_audio_equals_the_speculative_pause_audio(settings, question):
    events = _run(Endpointer(settings), np.concatenate([_silence(0.3), question, _silence(0.8)]))
    pause_index = max(i for i, e in enumerate(events) if isinstance(e, SpeechPaused))
    stop = events[-1]
    assert isinstance(stop, SpeechStopped)
    assert not any(isinstance(e, SpeechResumed) for e in events[pause_index:])
    assert np.array_equal(events[pause_index].audio, stop.audio)
    assert stop.at_s > events[pause_index].at_s  # the pause comes earlier: that is the head start


def test_a_gap_shorter_than_the_hangover_pauses_and_resumes(settings, question):
    start, end = speech_bounds(question)
    spoken = question[int(start * RATE) : int(end * RATE)]  # without espeak's own leading/trailing silence
    gap = (settings.vad_pause_ms + settings.vad_silence_ms) / 2000
    audio = np.concatenate([_silence(0.3), spoken, _silence(gap), spoken, _silence(0.8)])
    events = _run(Endpointer(settings), audio)
    assert len(_of(events, SpeechStarted)) == 1 and len(_of(events, SpeechStopped)) == 1
    kinds = [type(e) for e in events if isinstance(e, (SpeechPaused, SpeechResumed))]
    assert kinds[:2] == [SpeechPaused, SpeechResumed]
    assert _of(events, SpeechStopped)[0].end_s > 0.3 + len(spoken) / RATE + gap


def test_silence_and_clicks_give_no_events(settings):
    rng = np.random.default_rng(0)
    click = np.zeros(RATE, dtype=np.float32)
    click[8000:8400] = rng.standard_normal(400).astype(np.float32) * 0.5  # 25 ms burst
    endpointer = Endpointer(settings)
    assert _run(endpointer, np.concatenate([_silence(1.0), click, _silence(0.5)])) == []
    assert endpointer.flush() == []


def test_echo_guard_needs_longer_speech_while_speaking(settings):
    word = espeak_speech("yes")
    audio = np.concatenate([_silence(0.3), word, _silence(0.8)])
    listening = _run(Endpointer(settings), audio)
    guarded_settings = settings.model_copy(update={"bargein_min_speech_ms": int(len(word) / RATE * 1000) + 500})
    speaking = _run(Endpointer(guarded_settings, speaking=True), audio)
    assert len(_of(listening, SpeechStarted)) == 1 and len(_of(listening, SpeechStopped)) == 1
    assert speaking == []


def test_partials_grow_while_the_user_speaks(settings, sentence):
    endpointer = Endpointer(settings.model_copy(update={"partial_interval_ms": 500}))
    events = _run(endpointer, np.concatenate([_silence(0.3), sentence, _silence(0.8)]))
    partials = _of(events, PartialAudio)
    assert len(partials) >= int(len(sentence) / RATE / 0.5) - 2
    lengths = [len(p.audio) for p in partials]
    assert lengths == sorted(lengths) and lengths[0] < lengths[-1]
    first_start = events.index(_of(events, SpeechStarted)[0])
    last_stop = events.index(_of(events, SpeechStopped)[-1])
    assert all(first_start < events.index(p) < last_stop for p in partials)

    off = _run(Endpointer(settings.model_copy(update={"partial_interval_ms": 0})), sentence)
    assert _of(off, PartialAudio) == []


def test_long_speech_is_cut_into_pieces_not_dropped(settings, sentence):
    limit = 1.5
    endpointer = Endpointer(settings.model_copy(update={"max_utterance_s": limit, "partial_interval_ms": 0}))
    events = _run(endpointer, np.concatenate([_silence(0.3), sentence, _silence(0.8)]))
    stops = _of(events, SpeechStopped)
    assert len(stops) >= int(len(sentence) / RATE / limit)
    assert all(s.cut for s in stops[:-1]) and not stops[-1].cut
    assert all(len(s.audio) <= limit * RATE + 512 for s in stops)
    # consecutive pieces touch: nothing between them is lost
    for before, after in zip(stops, stops[1:]):
        assert after.start_s == pytest.approx(before.end_s)
    assert len(_of(events, SpeechStarted)) == len(stops)


def test_flush_ends_speech_in_progress(settings, question):
    endpointer = Endpointer(settings)
    events = _run(endpointer, np.concatenate([_silence(0.3), question]))
    assert endpointer.in_speech and len(_of(events, SpeechStarted)) == 1
    stopped = endpointer.flush()
    assert len(stopped) == 1 and isinstance(stopped[0], SpeechStopped)
    assert not endpointer.in_speech


def test_sessions_do_not_share_state(settings, question):
    """Two endpointers fed interleaved give the same events as each one alone (one shared model)."""
    audio_a = np.concatenate([_silence(0.3), question, _silence(0.8)])
    audio_b = _silence(len(audio_a) / RATE)
    alone = _run(Endpointer(settings), audio_a)
    a, b = Endpointer(settings), Endpointer(settings)
    together_a, together_b = [], []
    for at in range(0, len(audio_a), 320):
        together_a += a.feed(audio_a[at : at + 320])
        together_b += b.feed(audio_b[at : at + 320])
    assert [(type(e), e.at_s) for e in together_a] == [(type(e), e.at_s) for e in alone]
    assert together_b == []


def test_event_times_are_stream_times_that_run_on_across_a_reset_and_a_new_endpointer(settings, question):
    """A session's clock: a reset (the client cleared its input) or an endpointer made anew (its turn detection
    changed) does not restart it, so speech times stay times in the session's audio."""
    audio = np.concatenate([_silence(0.3), question, _silence(0.8)])
    first = _of(_run(Endpointer(settings), audio), SpeechStarted)[0].start_s
    endpointer = Endpointer(settings)
    _run(endpointer, _silence(1.0))
    endpointer.reset()
    assert _of(_run(endpointer, audio), SpeechStarted)[0].start_s == pytest.approx(1.0 + first, abs=0.04)
    later = Endpointer(settings, start_s=7.5)
    stopped = _of(_run(later, audio), SpeechStopped)[0]
    assert later is not endpointer and stopped.start_s == pytest.approx(7.5 + first, abs=0.04)
