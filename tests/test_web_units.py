"""The web layer's plain logic, without a server: event parsing, session updates, what was heard,
latency breakdowns, the SQLite history and the dashboard's statistics."""

from __future__ import annotations

import base64
import json
import sqlite3

import pytest

from app.web.history import HistoryStore, StoredMessage
from app.web.realtime import client_events as ce
from app.web.realtime import session_config as sc
from app.web.realtime.client_parsing import parse_client_event
from app.web.realtime.wire import ProtocolError, decode_text_frame
from app.web.reply import SpokenClause
from app.web.telemetry import LatencyWindow, normalize_engine_stats
from app.web.timing import Timing

DEFAULT_VAD = sc.TurnDetection(silence_duration_ms=400, threshold=0.5, prefix_padding_ms=300)
CONFIG = sc.SessionConfig(
    instructions="be brief", output_audio=True, input_rate=24000, output_rate=24000,
    turn_detection=DEFAULT_VAD, max_output_tokens=96, model="m",
)


def parse(event: dict) -> ce.ClientEvent:
    return parse_client_event(event, max_text_chars=100)


def error_of(event: dict) -> ProtocolError:
    with pytest.raises(ProtocolError) as caught:
        parse(event)
    return caught.value


# ---------------------------------------------------------------------- parsing


def test_text_frames_that_are_not_json_objects_are_rejected_with_codes():
    for frame, code in (("{", "invalid_json"), ("[1, 2]", "invalid_json"), (b"\xff\xfe", "invalid_utf8")):
        with pytest.raises(ProtocolError) as caught:
            decode_text_frame(frame)
        assert caught.value.code == code
    assert decode_text_frame('{"type": "x"}') == {"type": "x"}


def test_typed_message_accepts_ga_and_beta_content_types():
    for kind in ("input_text", "text"):
        event = parse({"type": "conversation.item.create", "event_id": "e1",
                       "item": {"type": "message", "role": "user", "content": [{"type": kind, "text": " hi "}]}})
        assert isinstance(event, ce.ItemCreate)
        assert (event.text, event.role, event.event_id) == ("hi", "user", "e1")
        assert event.item_id.startswith("item_")


@pytest.mark.parametrize(
    ("event", "code", "param"),
    [
        ({"type": 5}, "unknown_event", "type"),
        ({}, "unknown_event", "type"),
        ({"type": "response.explode"}, "unknown_event", "type"),
        ({"type": "session.update"}, "invalid_event", "session"),
        ({"type": "session.update", "session": "audio"}, "invalid_event", "session"),
        ({"type": "input_audio_buffer.append", "audio": 12}, "invalid_event", "audio"),
        ({"type": "input_audio_buffer.append", "audio": "not base64!"}, "invalid_audio", "audio"),
        ({"type": "input_audio_buffer.append", "audio": base64.b64encode(b"abc").decode()}, "invalid_audio", "audio"),
        ({"type": "conversation.item.create"}, "invalid_event", "item"),
        ({"type": "conversation.item.create", "item": {"content": [{"type": "input_text", "text": 3}]}},
         "invalid_event", "item.content.0.text"),
        ({"type": "conversation.item.create", "item": {"role": "tool", "content": [{"type": "input_text", "text": "x"}]}},
         "invalid_event", "item.role"),
        ({"type": "conversation.item.create", "item": {"role": "assistant", "content": [{"type": "input_text", "text": "x"}]}},
         "invalid_event", "item.content.0.type"),
        ({"type": "conversation.item.create", "item": {"type": "function_call_output", "call_id": "c"}},
         "invalid_event", "item.output"),
        ({"type": "conversation.item.create", "item": {"type": "function_call", "call_id": "c", "name": "f",
                                                        "arguments": "[1]"}}, "invalid_event", "item.arguments"),
        ({"type": "conversation.item.create", "item": {"type": "function_call", "name": "f"}}, "invalid_event",
         "item.call_id"),
        ({"type": "response.create", "response": {"max_output_tokens": "lots"}}, "invalid_event", "response.max_output_tokens"),
        ({"type": "response.create", "response": {"tools": [{"type": "function", "name": "bad name!"}]}},
         "invalid_event", "response.tools.0.name"),
        ({"type": "response.create", "response": {"tools": [{"type": "function", "name": "f"}],
                                                  "tool_choice": {"type": "function", "name": "g"}}},
         "invalid_event", "response.tool_choice.name"),
        ({"type": "conversation.item.create", "item": {"content": [{"type": "input_image", "text": "x"}]}},
         "invalid_event", "item.content.0.type"),
        ({"type": "conversation.item.create", "item": {"content": [{"type": "input_text", "text": "x" * 101}]}},
         "text_too_long", "item.content"),
        ({"type": "conversation.item.create", "item": {"content": [{"type": "input_text", "text": "  "}]}},
         "empty_input", "item.content"),
        ({"type": "conversation.item.truncate", "item_id": "i", "content_index": 0}, "invalid_event", "audio_end_ms"),
        ({"type": "conversation.item.truncate", "item_id": "i", "audio_end_ms": "10"}, "invalid_event", "audio_end_ms"),
        ({"type": "response.create", "response": {"output_modalities": ["video"]}}, "invalid_event",
         "response.output_modalities"),
        ({"type": "response.create", "response": {"max_output_tokens": 0}}, "invalid_event", "response.max_output_tokens"),
        ({"type": "response.cancel", "response_id": 7}, "invalid_event", "response_id"),
    ],
)
def test_bad_events_get_a_code_and_the_offending_param(event, code, param):
    event = {**event, "event_id": "client-1"}
    error = error_of(event)
    assert (error.code, error.param, error.event_id) == (code, param, "client-1")


def test_audio_append_decodes_pcm16():
    pcm = b"\x01\x00\xff\x7f"
    event = parse({"type": "input_audio_buffer.append", "audio": base64.b64encode(pcm).decode()})
    assert event == ce.AudioAppend(pcm)


def test_response_create_reads_beta_modalities_and_limits():
    event = parse({"type": "response.create", "response": {"modalities": ["text", "audio"], "max_response_output_tokens": 20}})
    assert (event.output_audio, event.max_output_tokens) == (True, 20)
    assert parse({"type": "response.create"}) == ce.ResponseCreate()


# ---------------------------------------------------------------------- session.update


def update(patch: dict) -> sc.SessionConfig:
    event = parse({"type": "session.update", "session": patch})
    return sc.apply_session_update(CONFIG, event.session, defaults=DEFAULT_VAD, max_tokens_limit=96,
                                   asr_languages=frozenset({"en"}))  # an English-only speech model


def test_ga_session_update_sets_formats_turn_detection_and_modalities():
    config = update({
        "type": "realtime",
        "instructions": "speak like a pirate",
        "output_modalities": ["text"],
        "audio": {
            "input": {"format": {"type": "audio/pcm", "rate": 16000},
                      "turn_detection": {"type": "server_vad", "silence_duration_ms": 250, "threshold": 0.6}},
            "output": {"format": {"type": "audio/pcm", "rate": 16000}, "voice": "marin"},
        },
        "max_output_tokens": 500,
        "tools": [],
    })
    assert config.instructions == "speak like a pirate" and not config.output_audio
    assert (config.input_rate, config.output_rate, config.voice, config.max_output_tokens) == (16000, 16000, "marin", 96)
    assert config.turn_detection == sc.TurnDetection(250, 0.6, 300)
    wire = config.to_wire("sess_1", 96)
    assert wire["output_modalities"] == ["text"] and wire["max_output_tokens"] == "inf"
    assert wire["audio"]["input"]["turn_detection"]["silence_duration_ms"] == 250
    json.dumps(wire)


def test_beta_session_update_and_turn_detection_off():
    config = update({"modalities": ["text", "audio"], "input_audio_format": "pcm16", "output_audio_format": "pcm16",
                     "turn_detection": None, "voice": "alloy"})
    assert config.output_audio and config.turn_detection is None
    assert (config.input_rate, config.output_rate, config.voice) == (24000, 24000, "alloy")
    assert update({"audio": {"input": {"turn_detection": {"type": "server_vad"}}}}).turn_detection == DEFAULT_VAD


@pytest.mark.parametrize(
    ("patch", "code"),
    [
        ({"instructions": 3}, "invalid_event"),
        ({"output_modalities": "audio"}, "invalid_event"),
        ({"output_modalities": []}, "invalid_event"),
        ({"audio": {"output": {"format": {"type": "audio/pcmu"}}}}, "unsupported_audio_format"),
        ({"audio": {"input": {"format": {"type": "audio/pcm", "rate": 44100}}}}, "unsupported_audio_format"),
        ({"audio": {"output": {"format": {"type": "audio/pcm", "rate": "24000"}}}}, "invalid_event"),
        ({"input_audio_format": "g711_ulaw"}, "unsupported_audio_format"),
        ({"turn_detection": {"type": "server_vad", "threshold": 2}}, "invalid_event"),
        ({"turn_detection": {"type": "server_vad", "silence_duration_ms": True}}, "invalid_event"),
        ({"max_output_tokens": 0}, "invalid_event"),
        ({"audio": []}, "invalid_event"),
    ],
)
def test_bad_session_updates_are_rejected(patch, code):
    with pytest.raises(ProtocolError) as caught:
        update(patch)
    assert caught.value.code == code


# ---------------------------------------------------------------------- what was heard, latency


def test_heard_text_keeps_played_clauses_and_the_played_share_of_the_next():
    from app.web.reply import Reply

    reply = Reply.__new__(Reply)  # only the audio accounting is under test
    reply.output_rate = 1000
    reply.clauses = [SpokenClause("One two three four.", 1000), SpokenClause("Five six seven eight.", 2000),
                     SpokenClause("Never synthesised.", 0)]
    assert reply.audio_ms() == 3000
    assert reply.heard_text(0) == ""
    assert reply.heard_text(999) == "One two three"
    assert reply.heard_text(1000) == "One two three four."
    assert reply.heard_text(2000) == "One two three four. Five six"
    assert reply.heard_text(3000) == "One two three four. Five six seven eight."
    assert reply.spoken_text() == "One two three four. Five six seven eight."


def test_latency_breakdown_sums_to_total_and_clamps_speculative_stages():
    timing = Timing(speech_end=10.0, turn_end=10.4, transcript=10.1, first_token=10.5, first_clause=10.6,
                    first_chunk=10.7, first_sent=10.701, speculative=True)
    latency = timing.breakdown()
    assert latency["endpoint_ms"] == pytest.approx(400)
    assert latency["asr_ms"] == 0  # finished during the pause
    assert latency["llm_first_token_ms"] == pytest.approx(100)
    stages = [v for k, v in latency.items() if k.endswith("_ms") and k != "total_ms"]
    assert sum(stages) == pytest.approx(latency["total_ms"], abs=0.5)
    typed = Timing(speech_end=1.0, first_token=1.05, first_sent=1.06).breakdown()
    assert typed["endpoint_ms"] is None and typed["asr_ms"] is None and typed["total_ms"] == pytest.approx(60)


# ---------------------------------------------------------------------- history


def test_history_is_wal_durable_and_resumes_by_session(tmp_path):
    path = tmp_path / "h.sqlite3"
    store = HistoryStore(path)
    store.add_sync("s1", StoredMessage("item_1", "user", "hello", spoken=True))
    store.add_sync("s1", StoredMessage("item_2", "assistant", "hi there, how can I help", spoken=True))
    store.add_sync("s2", StoredMessage("item_3", "user", "other", spoken=False))
    assert store.set_text_sync("s1", "item_2", "hi there")
    assert not store.set_text_sync("s1", "item_404", "x")
    # another connection (another process after a crash) sees every committed write
    other = sqlite3.connect(str(path))
    assert other.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert other.execute("SELECT text FROM messages WHERE item_id = 'item_2'").fetchone()[0] == "hi there"
    other.close()
    store.close()
    reopened = HistoryStore(path)
    assert reopened.load_sync("s1") == [
        StoredMessage("item_1", "user", "hello", True),
        StoredMessage("item_2", "assistant", "hi there", True),
    ]
    assert [m.item_id for m in reopened.load_sync("s1", limit=1)] == ["item_2"]
    assert reopened.load_sync("nobody") == []
    reopened.close()


# ---------------------------------------------------------------------- dashboard statistics


def test_latency_window_percentiles_and_expiry():
    now = [1000.0]
    window = LatencyWindow(window_s=60, clock=lambda: now[0])
    for total in (100, 200, 300, 400):
        window.record({"total_ms": total, "asr_ms": None}, text_only=False)
    window.record({"total_ms": 50}, text_only=True)
    summary = window.summary()
    assert summary["total_ms"]["n"] == 5 and summary["total_ms"]["p50"] == 200
    assert summary["asr_ms"] == {"p50": None, "p95": None, "n": 0}
    assert summary["text_ttft_ms"]["p50"] == 50
    now[0] += 61
    assert window.summary()["total_ms"]["n"] == 0


def test_engine_stats_are_normalised_for_the_dashboard():
    view = normalize_engine_stats({"batch_size": 3, "waiting_voice": 1, "waiting_text": 2, "waiting_background": 0,
                                   "kv_blocks_used": 10, "kv_blocks_total": 40, "tokens_per_s": 55.0, "running": 3})
    assert view["queue"] == {"voice": 1, "text": 2, "background": 0}
    assert (view["batch_size"], view["kv_use"], view["tokens_per_s"]) == (3, 0.25, 55.0)
    assert normalize_engine_stats({})["kv_use"] is None


def test_series_points_carry_every_stage_percentile():
    from app.web.telemetry import Telemetry

    telemetry = Telemetry()
    telemetry.record_response("completed", {"asr_ms": 120.0, "total_ms": 900.0}, text_only=False, voice_turn=True)
    telemetry.record_response("completed", {"total_ms": 80.0}, text_only=True, voice_turn=False)
    telemetry.sample(2, normalize_engine_stats({"batch_size": 1}))
    point = telemetry.series[-1]
    assert point["sessions"] == 2 and point["batch_size"] == 1
    assert point["asr_p50_ms"] == 120.0 and point["text_ttft_p95_ms"] == 80.0 and point["send_p50_ms"] is None
    assert {"endpoint_p95_ms", "llm_first_token_p50_ms", "first_clause_p95_ms", "tts_first_chunk_p50_ms",
            "total_p95_ms"} <= set(point)



def test_reply_guard_ends_a_loop_at_its_third_repeat():
    from app.web.reply_guard import ReplyGuard

    guard = ReplyGuard(96, spoken=False)
    text = "El amigo, el amigo, el amigo, el amigo, el amigo,"
    assert not guard.check("El amigo, el amigo, el amigo,", 6)
    assert guard.check(text, 12) and guard.reason == "loop"
    assert not ReplyGuard(96, spoken=False).check("The cat sat on the mat and the dog sat on the rug.", 14)


def test_reply_guard_ends_a_long_spoken_reply_at_a_sentence_end():
    from app.web.reply_guard import ReplyGuard

    spoken = ReplyGuard(40, spoken=True)
    assert not spoken.check("First sentence.", 10)  # within budget
    assert not spoken.check("First sentence. And then a second one that", 31)  # past it, mid-sentence
    assert spoken.check("First sentence. And then a second one that ends.", 33) and spoken.reason == "sentence"
    assert not ReplyGuard(40, spoken=False).check("First sentence. And then a second one that ends.", 33)  # text only


def test_a_reply_cut_by_the_token_limit_does_not_speak_its_unfinished_sentence():
    from app.web.reply_guard import speakable_end

    assert speakable_end(["Paris is the capital.", "It has a tower that"], cut=True) == ["Paris is the capital."]
    assert speakable_end(["Paris is the capital.", "It has a tower."], cut=True) == ["Paris is the capital.", "It has a tower."]
    assert speakable_end(["It has a tower that"], cut=False) == ["It has a tower that"]


# ---------------------------------------------------------------------- hostile JSON, setting bounds, SDK shapes


@pytest.mark.parametrize(
    ("frame", "code", "param"),
    [
        ('{"type": "session.update", "session": ' + "[" * 5000 + "]" * 5000 + "}", "invalid_json", None),
        ('{"type": "session.update", "session": {"a": ' + '{"a": ' * 40 + "1" + "}" * 41 + "}", "invalid_json", None),
        ('{"type": "session.update", "session": {"instructions": "\\ud800 hi"}}', "invalid_event", "session.instructions"),
        ('{"type": "session.update", "session": {"voice": "\\udfff"}}', "invalid_event", "session.voice"),
        ('{"type": "conversation.item.truncate", "item_id": "i", "audio_end_ms": 1' + "0" * 400 + "}",
         "invalid_event", "audio_end_ms"),
        ('{"type": "response.create", "response": {"max_output_tokens": 1e400}}', "invalid_event", "response.max_output_tokens"),
        ('{"type": "response.create", "response": {"max_output_tokens": NaN}}', "invalid_json", None),
    ],
)
def test_hostile_json_gets_a_precise_error(frame, code, param):
    with pytest.raises(ProtocolError) as caught:
        parse(decode_text_frame(frame))
    assert (caught.value.code, caught.value.param) == (code, param)


@pytest.mark.parametrize(
    ("patch", "code", "param"),
    [
        ({"audio": {"input": {"turn_detection": {"type": "semantic_vad"}}}}, "unsupported_feature",
         "session.audio.input.turn_detection.type"),
        ({"type": "transcription"}, "unsupported_feature", "session.type"),
        ({"tools": [{"type": "function", "name": "now", "parameters": {"type": "wrong"}}]}, "invalid_event",
         "session.tools.0.parameters"),
        ({"tools": [{"type": "function", "name": "now"}, {"type": "function", "name": "now"}]}, "invalid_event",
         "session.tools.1.name"),
        ({"tool_choice": "sometimes"}, "invalid_event", "session.tool_choice"),
        ({"tool_choice": {"type": "function", "name": "nope"}}, "invalid_event", "session.tool_choice.name"),
        ({"audio": {"input": {"turn_detection": {"prefix_padding_ms": 60000}}}}, "invalid_event",
         "session.audio.input.turn_detection.prefix_padding_ms"),
        ({"turn_detection": {"silence_duration_ms": 10**9}}, "invalid_event", "session.turn_detection.silence_duration_ms"),
        ({"instructions": "x" * 101}, "text_too_long", "session.instructions"),
        ({"audio": {"output": {"voice": "v" * 65}}}, "invalid_event", "session.audio.output.voice"),
        ({"audio": {"input": {"transcription": {"language": "l" * 65}}}}, "invalid_event",
         "session.audio.input.transcription.language"),
        ({"audio": {"input": {"transcription": {"language": "fr"}}}}, "unsupported_feature",
         "session.audio.input.transcription.language"),  # the shared recogniser's model knows English only
        ({"input_audio_transcription": {"language": "de"}}, "unsupported_feature", "session.input_audio_transcription.language"),
        ({"max_output_tokens": 1.5}, "invalid_event", "session.max_output_tokens"),
        ({"audio": {"input": {"format": {"type": "audio/pcm", "rate": "fast"}}}}, "invalid_event",
         "session.audio.input.format.rate"),
    ],
)
def test_unsupported_and_out_of_bounds_settings_are_refused(patch, code, param):
    with pytest.raises(ProtocolError) as caught:
        update(patch)
    assert (caught.value.code, caught.value.param) == (code, param)
    assert "int" not in (caught.value.param or "").split(".") and "FormatPatch" not in caught.value.message


def test_a_session_sets_the_speed_of_its_spoken_replies_in_the_protocol_bounds():
    from sdk_conformance import sdk_rejections

    from app.web.realtime import server_events as ev

    assert CONFIG.speed == 1.0 and CONFIG.to_wire("sess_1", 96)["audio"]["output"]["speed"] == 1.0
    config = update({"audio": {"output": {"speed": 1.25}}})
    wire = config.to_wire("sess_1", 96)
    assert config.speed == 1.25 and wire["audio"]["output"]["speed"] == 1.25
    assert sdk_rejections([ev.session_updated(wire)]) == []
    assert update({"speed": 0.5}).speed == 0.5  # the beta flat name
    assert update({"audio": {"output": {"speed": 1}}}).speed == 1.0 and isinstance(update({"speed": 1}).speed, float)
    assert update({"audio": {"output": {"voice": "marin"}}}).speed == 1.0  # unchanged unless sent
    for bad in (0.2, 1.6, "fast", True):
        with pytest.raises(ProtocolError) as caught:
            update({"audio": {"output": {"speed": bad}}})
        assert (caught.value.code, caught.value.param) == ("invalid_event", "session.audio.output.speed")


def test_a_voice_that_speaks_at_one_speed_refuses_another_and_keeps_one():
    event = parse({"type": "session.update", "session": {"audio": {"output": {"speed": 1.2}}}})
    with pytest.raises(ProtocolError) as caught:
        sc.apply_session_update(CONFIG, event.session, defaults=DEFAULT_VAD, max_tokens_limit=96, speed_supported=False)
    assert (caught.value.code, caught.value.param) == ("unsupported_feature", "session.audio.output.speed")
    assert "one speed" in caught.value.message
    same = parse({"type": "session.update", "session": {"speed": 1.0}})
    assert sc.apply_session_update(CONFIG, same.session, defaults=DEFAULT_VAD, max_tokens_limit=96,
                                   speed_supported=False).speed == 1.0  # fmt: skip


def test_a_16khz_session_keeps_its_rate_in_an_extension_the_sdk_accepts():
    from sdk_conformance import sdk_rejections

    from app.web.realtime import server_events as ev

    config = update({"audio": {"input": {"format": {"type": "audio/pcm", "rate": 16000}}}})
    wire = config.to_wire("sess_1", 96)
    assert wire["audio"]["input"]["format"] == {"type": "audio/pcm", "sample_rate": 16000}
    assert wire["audio"]["output"]["format"] == {"type": "audio/pcm", "rate": 24000}
    assert sdk_rejections([ev.session_updated(wire)]) == []


def test_every_server_event_builder_gives_an_event_the_sdk_accepts():
    from sdk_conformance import sdk_rejections

    from app.web.realtime import server_events as ev

    item = ev.message_item("item_1", "assistant", text="Hi.", audio=True)
    audio, text = ev.ContentEvents("resp_1", "item_1", True), ev.ContentEvents("resp_1", "item_1", False)
    response = ev.response_object("resp_1", status="cancelled", output_audio=True, output=[item], usage=ev.usage(12, 3),
                                  status_details={"type": "cancelled", "reason": "turn_detected"}, latency={"total_ms": 1})
    events = [
        ev.error("invalid_event", "bad", param="item.id", event_id="e1"), ev.error("internal_error", "oops"),
        ev.session_created(CONFIG.to_wire("sess_1", 96)), ev.rate_limits_updated([("requests", 200, 200, 1.0)]),
        ev.speech_started(10, "item_1"), ev.speech_stopped(900, "item_1"), ev.audio_committed("item_1", None),
        ev.audio_cleared(), ev.transcription_delta("item_1", "What", "What is"),
        ev.transcription_completed("item_1", "What?", language="en", audio_s=1.2, asr_ms=80.0),
        ev.item_added(ev.message_item("item_1", "user", text=None, audio=True, status="in_progress"), "item_0"),
        ev.item_done(ev.message_item("item_2", "system", text="Be brief.", audio=False), None),
        ev.item_done(ev.message_item("item_3", "assistant", text="Hi.", audio=False), "item_2"),
        ev.item_retrieved(item), ev.item_deleted("item_1"), ev.item_truncated("item_1", 300, "Hi"),
        ev.response_created(ev.response_object("resp_1", status="in_progress", output_audio=False)),
        ev.response_done(response), ev.output_item_added("resp_1", item), ev.output_item_done("resp_1", item),
        audio.part_added(), audio.text_delta("Hi"), audio.audio_delta(b"\x00\x00"), *audio.done("Hi."), audio.part_done("Hi."),
        text.part_added(), text.text_delta("Hi"), *text.done("Hi."), text.part_done("Hi."),
    ]
    assert sdk_rejections(events) == []
    usage = response["usage"]
    assert usage["total_tokens"] == usage["input_tokens"] + usage["output_tokens"] == 15
    broken = {**ev.transcription_completed("item_1", "x", language="en", audio_s=1.0, asr_ms=1.0), "usage": None}
    assert sdk_rejections([broken])  # the check can fail


def test_a_session_chooses_any_language_its_speech_model_knows():
    assert update({"audio": {"input": {"transcription": {"language": "EN"}}}}).transcription == {"language": "en"}
    multilingual = frozenset({"en", "es", "fr"})

    def choose(language: str) -> sc.SessionConfig:
        event = parse({"type": "session.update", "session": {"audio": {"input": {"transcription": {"language": language}}}}})
        return sc.apply_session_update(CONFIG, event.session, defaults=DEFAULT_VAD, max_tokens_limit=96,
                                       asr_languages=multilingual)  # fmt: skip

    assert choose("fr").transcription == {"language": "fr"}
    with pytest.raises(ProtocolError) as caught:
        choose("klingon")
    assert (caught.value.code, caught.value.param) == ("invalid_event", "session.audio.input.transcription.language")
    assert "ISO 639-1" in caught.value.message
