"""semantic_vad's logic: the wait a score gives, the setting, and the turns with small fakes (a fake engine answering
scripted end-of-turn scores, a fake recogniser, a recording stand-in for the VAD), plus the real VAD's wait."""

from __future__ import annotations

import asyncio

import numpy as np
import pytest
from realtime_fakes import Rig, make_rig

from app.config import Settings
from app.engine.api import Priority
from app.vad import SpeechPaused, SpeechStarted, SpeechStopped
from app.vad.end_of_turn import WAITS, normalise, silence_ms
from app.web.realtime.session_config import SessionConfig, SessionPatch, TurnDetection, apply_session_update
from app.web.realtime.wire import ProtocolError

SECOND = np.zeros(16000, np.float32)
FINISHED, UNFINISHED = "What is the capital of France?", "What is the capital of"
SCORES = {"what is the capital of france": 0.9, "what is the capital of": 1e-9}


def test_the_wait_shortens_as_the_end_grows_likely_within_each_eagerness():
    for eagerness, waits in WAITS.items():
        assert silence_ms(1e-9, eagerness) == waits.longest_ms and silence_ms(0.9, eagerness) == waits.shortest_ms
        series = [silence_ms(p, eagerness) for p in (1e-4, 1e-3, 3e-3, 1e-2, 3e-2, 0.1)]
        assert series == sorted(series, reverse=True)
    assert WAITS["low"].longest_ms > WAITS["medium"].longest_ms > WAITS["high"].longest_ms
    assert WAITS["high"].shortest_ms <= 250 and WAITS["low"].longest_ms <= 1500


def test_words_are_normalised_as_speech_comes():
    assert normalise("  What's the capital of... France?! ") == "what's the capital of france"


DEFAULTS = TurnDetection(silence_duration_ms=400, threshold=0.5, prefix_padding_ms=300)
CONFIG = SessionConfig(instructions="", output_audio=True, input_rate=24000, output_rate=24000,
                       turn_detection=DEFAULTS, max_output_tokens=96, model="m")


def updated(turn_detection: dict, supported: bool = True, config: SessionConfig = CONFIG) -> SessionConfig:
    patch = SessionPatch.model_validate({"audio": {"input": {"turn_detection": turn_detection}}})
    return apply_session_update(config, patch, defaults=DEFAULTS, max_tokens_limit=96, end_of_turn_supported=supported)


def test_semantic_vad_is_a_setting_in_the_sdk_shape_and_server_vad_comes_back_unchanged():
    from sdk_conformance import sdk_rejections as rejections

    from app.web.realtime import server_events as ev

    semantic = updated({"type": "semantic_vad", "eagerness": "low"})
    wire = semantic.to_wire("sess_1", 96)
    assert wire["audio"]["input"]["turn_detection"] == {"type": "semantic_vad", "eagerness": "low",
                                                        "create_response": True, "interrupt_response": True}
    assert rejections([ev.session_updated(wire)]) == []
    assert updated({"type": "semantic_vad"}).turn_detection.eagerness == "auto"
    assert updated({"type": "semantic_vad"}, config=semantic).turn_detection.eagerness == "low"
    back = updated({"type": "server_vad"}, config=semantic)
    assert back.turn_detection == DEFAULTS and back.to_wire("s", 96) == CONFIG.to_wire("s", 96)


@pytest.mark.parametrize(("turn_detection", "supported", "code", "param"), [
    ({"type": "semantic_vad"}, False, "unsupported_feature", "session.audio.input.turn_detection.type"),
    ({"type": "semantic_vad", "eagerness": "eager"}, True, "invalid_event", "session.audio.input.turn_detection.eagerness"),
    ({"type": "smart_vad"}, True, "invalid_event", "session.audio.input.turn_detection.type"),
])  # fmt: skip
def test_bad_or_unscorable_semantic_vad_is_refused(turn_detection, supported, code, param):
    with pytest.raises(ProtocolError) as caught:
        updated(turn_detection, supported)
    assert (caught.value.code, caught.value.param) == (code, param)


class RecordingEndpointer:
    """Stands in for the session's VAD: records the waits the turns set."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    def end_pause_after(self, silence_ms: float) -> None:
        self.waits.append(silence_ms)


async def semantic(rig: Rig, eagerness: str = "auto") -> RecordingEndpointer:
    rig.engine.end_scores = dict(SCORES)
    await rig.send({"type": "session.update", "session": {"audio": {"input": {"turn_detection":
                    {"type": "semantic_vad", "eagerness": eagerness}}}}})  # fmt: skip
    endpointer = RecordingEndpointer()
    rig.session.audio_in._endpointer = endpointer  # type: ignore[assignment]
    return endpointer


async def pause(rig: Rig) -> None:
    async with rig.session.lock:
        await rig.session.turns.speech_started(SpeechStarted(at_s=0.3, start_s=0.2))
        rig.session.turns.speech_paused(SpeechPaused(at_s=1.3, audio=SECOND))


async def waits_set(endpointer: RecordingEndpointer) -> list[float]:
    for _ in range(400):
        if endpointer.waits:
            break
        await asyncio.sleep(0.005)
    return endpointer.waits


@pytest.mark.parametrize(("eagerness", "words", "wait"), [
    ("auto", FINISHED, WAITS["auto"].shortest_ms), ("auto", UNFINISHED, WAITS["auto"].longest_ms),
    ("high", FINISHED, WAITS["high"].shortest_ms), ("low", UNFINISHED, WAITS["low"].longest_ms),
])  # fmt: skip
async def test_the_pause_words_score_decides_the_silence_that_ends_it(rig: Rig, eagerness: str, words: str, wait: int):
    endpointer = await semantic(rig, eagerness)
    rig.recognizer.finals = [words]
    await pause(rig)
    assert await waits_set(endpointer) == [wait]
    [reply] = rig.engine.requests  # the speculative reply's prefill reads the score: no request of its own
    assert reply["priority"] == Priority.VOICE and reply["messages"][-1] == {"role": "user", "content": words}
    assert reply["params"].token_probs == rig.session.parts.end_of_turn.end_ids
    assert reply["params"].token_probs_at == "user_words_end"
    async with rig.session.lock:  # the silence lasts: the speculative turn (and its reply) is adopted
        rig.session.turns.speech_stopped(SpeechStopped(at_s=2.0, audio=SECOND, start_s=0.2, end_s=1.2), speech_end=0.0)
    done = await rig.outbox.wait_for("response.done")
    assert done["response"]["latency"]["speculative"] is True and rig.recognizer.calls == 1


async def test_where_the_reply_cannot_read_the_score_a_request_of_its_own_does_beside_it(rig: Rig):
    """The reply still starts at the pause, as with server_vad: on a CPU the first audio waits for ASR, the reply's
    prefill, its first clause and its synthesis, which take longer than the silence the score sets."""
    endpointer = await semantic(rig)
    rig.engine.replies_probe = False  # e.g. a speculative step prefilled the prompt
    rig.engine.score_gate = asyncio.Event()
    rig.recognizer.finals = [FINISHED]
    await pause(rig)
    for _ in range(400):
        if any(r["params"].max_tokens == 1 for r in rig.engine.requests):
            break
        await asyncio.sleep(0.005)
    reply, score = rig.engine.requests
    assert reply["params"].token_probs_at == "user_words_end" and endpointer.waits == []
    assert score["priority"] == Priority.VOICE and score["params"].max_tokens == 1
    assert score["messages"][0]["role"] == "system"  # the reply's own prompt, up to the user's words, left open
    assert score["messages"][-1] == {"role": "user", "content": normalise(FINISHED), "prefix": True}
    rig.engine.score_gate.set()
    assert await waits_set(endpointer) == [WAITS["auto"].shortest_ms]


async def test_the_user_going_on_discards_the_pause_and_its_late_score_sets_nothing(rig: Rig):
    endpointer = await semantic(rig)
    rig.recognizer.finals = [UNFINISHED]
    rig.recognizer.gate = asyncio.Event()
    await pause(rig)
    async with rig.session.lock:
        rig.session.turns.discard_speculative()  # what SpeechResumed does
    rig.recognizer.gate.set()
    await asyncio.sleep(0.1)
    assert endpointer.waits == [] and not any(r["params"].token_probs for r in rig.engine.requests)


async def test_a_pause_without_a_score_waits_the_server_vads_silence(rig: Rig):
    endpointer = await semantic(rig)
    rig.recognizer.finals = ["Something the engine has no score for"]
    await pause(rig)
    assert await waits_set(endpointer) == [rig.session.default_vad.silence_duration_ms]


async def test_the_server_setting_makes_semantic_vad_each_new_sessions_turn_detection(tmp_path):
    rig = await make_rig(tmp_path, turn_detection="semantic_vad")
    try:
        created = rig.outbox.of("session.created")[0]["session"]["audio"]["input"]["turn_detection"]
        assert created["type"] == "semantic_vad" and created["eagerness"] == "auto"
        rig.engine.end_scores = dict(SCORES)
        endpointer = RecordingEndpointer()
        rig.session.audio_in._endpointer = endpointer  # type: ignore[assignment]
        rig.recognizer.finals = [FINISHED]
        await pause(rig)
        assert await waits_set(endpointer) == [WAITS["auto"].shortest_ms]
    finally:
        await rig.close()


def test_semantic_vad_as_the_servers_default_needs_the_local_engine():
    with pytest.raises(ValueError, match="semantic_vad needs llm_backend local"):
        Settings(turn_detection="semantic_vad", llm_backend="openai", llm_model="smollm2-135m")


async def test_server_vad_asks_for_no_score_and_sets_no_wait(tmp_path):
    rig = await make_rig(tmp_path, turn_detection="server_vad")
    try:
        assert rig.session.config.turn_detection.type == "server_vad"
        rig.engine.end_scores = dict(SCORES)
        endpointer = RecordingEndpointer()
        rig.session.audio_in._endpointer = endpointer  # type: ignore[assignment]
        rig.recognizer.finals = [FINISHED]
        await pause(rig)
        await asyncio.sleep(0.1)
        assert endpointer.waits == [] and not any(r["params"].token_probs for r in rig.engine.requests)
    finally:
        await rig.close()


async def test_by_default_a_session_judges_its_pauses_by_their_words(rig: Rig):
    """turn_detection auto: semantic_vad where the engine can score, as the local one can."""
    assert rig.session.settings.turn_detection == "auto"
    assert rig.session.config.turn_detection.type == "semantic_vad"


def test_the_real_vad_ends_a_pause_after_the_wait_set_and_the_next_one_waits_the_default(settings):
    from app.bench.speech_samples import espeak_speech, speech_bounds
    from app.vad import Endpointer

    speech = espeak_speech("What is the capital of France?")
    speech = speech[: int(speech_bounds(speech)[1] * 16000)]  # no silence of its own after the words
    silence = np.zeros(16000 * 2, np.float32)
    endpointer = Endpointer(settings.model_copy(update={"vad_silence_ms": 1000}))
    events = endpointer.feed(speech)
    events += endpointer.feed(silence[: 16000 * 2 // 5])  # 400 ms: paused, not stopped
    assert any(isinstance(e, SpeechPaused) for e in events) and not any(isinstance(e, SpeechStopped) for e in events)
    endpointer.end_pause_after(150)
    stopped = [e for e in endpointer.feed(silence[:640]) if isinstance(e, SpeechStopped)]
    assert len(stopped) == 1  # at the next frame (40 ms fed), not after 1 s
    events = endpointer.feed(speech) + endpointer.feed(silence[: 16000 * 7 // 10])  # the next utterance: 700 ms
    assert not any(isinstance(e, SpeechStopped) for e in events)
    assert any(isinstance(e, SpeechStopped) for e in endpointer.feed(silence[: 16000 * 4 // 10]))
