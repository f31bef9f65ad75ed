"""Bad input, limits, access rules, protocol fuzzing, faults and a short load run against the real app.

One set of real parts (engine, Whisper, piper; subclasses that fail only for marked sessions) serves
two apps on 127.0.0.1: ``main`` with roomy limits and ``strict`` with tight ones and an access token.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import binascii
import json
import os
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import pytest
import websockets
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from websockets.sync.client import connect as connect_sync

from app.audio import float32_to_pcm16
from app.bench.client import RealtimeClient
from app.bench.speech_samples import espeak_speech
from app.config import Settings
from reliability_helpers import (
    FaultyEngine,
    FaultyRecognizer,
    FaultyTTS,
    RawWebSocket,
    Server,
    build_faulty_parts,
    engine_idle,
    get_json,
    running,
    serve_parts,
    wait_for_sessions,
)

TOKEN = "s3cret-demo-token"
LONG_REPLY = "You are a storyteller. Always answer with a long story of at least ten sentences."
TYPED = {"type": "conversation.item.create",
         "item": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Tell me a story."}]}}


@dataclass
class Parts:
    engine: FaultyEngine
    recognizer: FaultyRecognizer
    tts: FaultyTTS


@pytest.fixture(scope="module")
def parts(settings: Settings, prepared) -> Iterator[Parts]:
    part_settings = settings.model_copy(update={"max_new_tokens": 200})
    engine, recognizer, tts = build_faulty_parts(part_settings, prepared)
    with running(engine, recognizer, tts):
        yield Parts(engine, recognizer, tts)


def _serve(settings: Settings, parts: Parts, tmp_path_factory: pytest.TempPathFactory, **limits: object) -> Iterator[Server]:
    app_settings = settings.model_copy(
        update={"data_dir": tmp_path_factory.mktemp("reliability"), "max_new_tokens": 200, **limits}
    )
    yield from serve_parts(app_settings, parts.engine, parts.recognizer, parts.tts)


@pytest.fixture(scope="module")
def main(settings: Settings, parts: Parts, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from _serve(settings, parts, tmp_path_factory, max_sessions=6, allowed_origins="https://allowed.example")


@pytest.fixture(scope="module")
def tight(settings: Settings, parts: Parts, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A small send buffer, so that a client that does not read overflows it quickly."""
    yield from _serve(settings, parts, tmp_path_factory, max_send_buffer_bytes=256 * 1024)


@pytest.fixture(scope="module")
def strict(settings: Settings, parts: Parts, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from _serve(settings, parts, tmp_path_factory, access_token=TOKEN, max_messages_per_s=20.0,
                      max_audio_s_per_min=10.0, idle_timeout_s=3.0, max_utterance_s=2.0)


@pytest.fixture(scope="module")
def question() -> np.ndarray:
    return espeak_speech("What is the capital of France?")


def pcm16(seconds: float) -> bytes:
    return b"\x00\x00" * int(seconds * 16000)


def http(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, {k.lower(): v for k, v in response.headers.items()}, response.read()
    except urllib.error.HTTPError as error:
        return error.code, {k.lower(): v for k, v in error.headers.items()}, error.read()


def codes(client: RealtimeClient, after: int = 0) -> list[str]:
    return [e["error"]["code"] for e in client.events[after:] if e["type"] == "error"]


async def still_answers(client: RealtimeClient, marker: str) -> None:
    """The session goes on: a session.update is answered."""
    seen = len(client.events)
    await client.send({"type": "session.update", "session": {"instructions": marker}})
    await client.wait_for("session.updated", lambda e: e["session"]["instructions"] == marker, after=seen, timeout=15)


# ---------------------------------------------------------------------- bad frames


def test_invalid_utf8_in_a_text_frame_closes_with_1007_and_the_server_goes_on(main: Server):
    raw = RawWebSocket(main.port)
    opcode, payload = raw.read_frame()
    assert opcode == 0x1 and json.loads(payload)["type"] == "session.created"
    raw.send_frame(0x1, b'{"type": "session.update", "session": {"instructions": "\xff\xfe"}}')
    code, _, _ = raw.read_until_close()
    raw.close()
    assert code == 1007  # "invalid frame payload data", from the WebSocket layer itself
    wait_for_sessions(main.base_url, 0)
    assert get_json(main.base_url + "/healthz")["status"] == "ok"


async def test_rapid_connect_and_disconnect_leaves_no_session_or_descriptor_behind(main: Server, parts: Parts):
    await asyncio.to_thread(wait_for_sessions, main.base_url, 0)
    fds_before = len(os.listdir("/proc/self/fd"))
    for round_ in range(45):
        ws = await websockets.connect(main.ws_url)
        if round_ % 3 == 0:
            await ws.close()  # before reading anything
        elif round_ % 3 == 1:
            assert json.loads(await ws.recv())["type"] == "session.created"
            await ws.send(json.dumps(TYPED))
            await ws.close()
        else:
            ws.transport.abort()  # no close handshake at all
    await asyncio.to_thread(wait_for_sessions, main.base_url, 0)
    await asyncio.sleep(0.5)
    assert len(os.listdir("/proc/self/fd")) <= fds_before + 3
    assert engine_idle(parts.engine)
    async with RealtimeClient(main.ws_url) as client:
        await still_answers(client, "after the storm")


def test_a_client_that_never_reads_is_dropped_not_the_server(tight: Server):
    raw = RawWebSocket(tight.port, receive_buffer=4096)
    text = "x" * 3900
    event = json.dumps({"type": "conversation.item.create",
                        "item": {"type": "message", "role": "system", "content": [{"type": "input_text", "text": text}]}})
    dropped = False
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not dropped:
        try:
            for _ in range(20):
                raw.send_frame(0x1, event.encode())
        except TimeoutError:
            raise
        except OSError:  # the server closed the connection
            dropped = True
            break
        time.sleep(0.11)  # 180 messages/s: under the rate limit
        dropped = get_json(tight.base_url + "/healthz")["sessions"] == 0
    raw.close()
    assert dropped, "the server kept a session whose client does not read"
    wait_for_sessions(tight.base_url, 0)
    with connect_sync(tight.ws_url) as ws:
        assert json.loads(ws.recv(timeout=15))["type"] == "session.created"


# ---------------------------------------------------------------------- limits


async def test_messages_over_the_rate_are_dropped_with_one_error_per_second(strict: Server):
    async with RealtimeClient(f"{strict.ws_url}?token={TOKEN}") as client:
        seen = len(client.events)
        started = time.monotonic()
        for _ in range(100):
            await client.send({"type": "input_audio_buffer.clear"})
        sending_s = time.monotonic() - started
        await asyncio.sleep(1.0)
        cleared = sum(1 for e in client.events[seen:] if e["type"] == "input_audio_buffer.cleared")
        errors = codes(client, seen)
        assert 20 <= cleared < 100
        assert errors and set(errors) == {"rate_limit_exceeded"} and len(errors) <= 2 + int(sending_s)
        await asyncio.sleep(0.5)
        await still_answers(client, "calm again")


async def test_audio_faster_than_real_time_beyond_the_budget_is_dropped(strict: Server):
    async with RealtimeClient(f"{strict.ws_url}?token={TOKEN}") as client:
        seen = len(client.events)
        for _ in range(60):  # 15 s of audio at four times real time; the budget is 10 s a minute
            await client.send_raw(pcm16(0.25))
            await asyncio.sleep(0.0625)
        error = await client.wait_for("error", after=seen, timeout=10)
        assert error["error"]["code"] == "audio_rate_exceeded"
        assert set(codes(client, seen)) == {"audio_rate_exceeded"}
        await still_answers(client, "still listening")


async def test_an_utterance_over_the_maximum_is_refused_with_a_code(strict: Server):
    async with RealtimeClient(f"{strict.ws_url}?token={TOKEN}") as client:
        await client.send({"type": "session.update", "session": {"audio": {"input": {"turn_detection": None}}}})
        await client.wait_for("session.updated")
        seen = len(client.events)
        for _ in range(6):  # 3 s; max_utterance_s is 2
            await client.send_raw(pcm16(0.5))
        error = await client.wait_for("error", after=seen, timeout=10)
        assert error["error"]["code"] == "audio_buffer_full"
        await still_answers(client, "shorter please")


async def test_speech_over_the_maximum_utterance_is_cut_into_pieces_with_a_notice(strict: Server):
    speech = espeak_speech("I would like to hear about the history of Paris, the river that runs through it, and its tower.")
    audio = np.concatenate([speech, np.zeros(16000, np.float32)])
    done = "conversation.item.input_audio_transcription.completed"
    async with RealtimeClient(f"{strict.ws_url}?token={TOKEN}") as client:
        seen = len(client.events)
        for offset in range(0, len(audio), 1600):  # 100 ms frames in real time: under the strict message rate
            await client.send_raw(float32_to_pcm16(audio[offset : offset + 1600]))
            await asyncio.sleep(0.1)
        assert len(speech) / 16000 > 2 * 2.0  # max_utterance_s is 2: at least three pieces
        # every piece (the speech ended well inside the trailing second of silence) is transcribed
        pieces = lambda kind: sum(e["type"] == kind for e in client.events[seen:])  # noqa: E731
        # five pieces through Whisper: minutes on a 2-core CPU shared with other work
        await _until(lambda: pieces(done) >= 3 and pieces(done) == pieces("input_audio_buffer.committed"), timeout=240)
        assert "utterance_too_long" in codes(client, seen)
        transcripts = [e["transcript"].lower() for e in client.events[seen:] if e["type"] == done]
        assert "paris" in " ".join(transcripts) and "river" in " ".join(transcripts)  # nothing dropped
        await still_answers(client, "after a monologue")


async def test_an_idle_session_is_told_and_closed(strict: Server):
    client = RealtimeClient(f"{strict.ws_url}?token={TOKEN}")
    await client.connect()
    started = time.monotonic()
    assert await client.closed(timeout=15) == 1000
    assert 2.5 < time.monotonic() - started < 10
    assert codes(client) == ["session_idle"]
    assert client.close_reason == "idle"


# ---------------------------------------------------------------------- access


async def test_websocket_origin_allow_list(main: Server):
    for origin in ("https://allowed.example", f"http://127.0.0.1:{main.port}"):
        async with websockets.connect(main.ws_url, origin=origin) as ws:
            assert json.loads(await ws.recv())["type"] == "session.created"
    async with websockets.connect(main.ws_url, origin="https://evil.example") as ws:
        event = json.loads(await ws.recv())
        assert event["type"] == "error" and event["error"]["code"] == "origin_not_allowed"
        with pytest.raises(websockets.ConnectionClosed):
            await ws.recv()
        assert ws.close_code == 1008


async def test_access_token_guards_the_pages_and_the_websocket(strict: Server):
    async with websockets.connect(strict.ws_url) as ws:
        event = json.loads(await ws.recv())
        assert event["error"]["code"] == "unauthorized"
        with pytest.raises(websockets.ConnectionClosed):
            await ws.recv()
        assert ws.close_code == 1008
    async with websockets.connect(strict.ws_url, additional_headers={"Authorization": f"Bearer {TOKEN}"}) as ws:
        assert json.loads(await ws.recv())["type"] == "session.created"
    async with websockets.connect(strict.ws_url, additional_headers={"Cookie": f"voicechat_token={TOKEN}"}) as ws:
        assert json.loads(await ws.recv())["type"] == "session.created"

    status, headers, body = http(strict.base_url + "/")
    assert status == 401 and b"token" in body and "content-security-policy" in headers
    assert http(strict.base_url + "/api/dashboard")[0] == 401
    status, headers, _ = http(f"{strict.base_url}/?token={TOKEN}")
    assert status == 200
    cookie = headers["set-cookie"]
    assert cookie.startswith(f"voicechat_token={TOKEN};") and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert http(strict.base_url + "/dashboard", {"Cookie": f"voicechat_token={TOKEN}"})[0] == 200
    assert http(strict.base_url + "/healthz")[0] == 200


def test_pages_send_security_headers_and_load_no_inline_script(main: Server):
    for path in ("/", "/dashboard"):
        status, headers, body = http(main.base_url + path)
        assert status == 200
        policy = headers["content-security-policy"]
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
        assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy and "object-src 'none'" in policy
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "no-referrer"
        assert headers["x-frame-options"] == "DENY"
        html = body.decode()
        scripts = html.count("<script")
        assert scripts >= 1 and html.count('<script type="module" src="/static/') == scripts


# ---------------------------------------------------------------------- fuzzing

KNOWN_TYPES = (
    "session.update", "input_audio_buffer.append", "input_audio_buffer.commit", "input_audio_buffer.clear",
    "conversation.item.create", "conversation.item.truncate", "response.create", "response.cancel",
)
SAFE_INTEGERS = st.integers(-(2**53 - 1), 2**53 - 1)  # larger numbers are their own error (invalid_event, any field)
json_scalars = st.none() | st.booleans() | SAFE_INTEGERS | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20)
json_values = st.recursive(
    json_scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
not_str = json_values.filter(lambda v: not isinstance(v, str))
not_dict = json_values.filter(lambda v: not isinstance(v, dict))
not_int = json_values.filter(lambda v: not isinstance(v, int) or isinstance(v, bool))


def _is_base64(text: str) -> bool:
    try:
        base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        return False
    return True


def _wrong_field(kind: str, field: str, value: object, **base: object) -> dict:
    return {**base, "type": kind, field: value}


malformed_events = st.one_of(
    st.tuples(st.text(max_size=40).filter(lambda t: not _parses_to_object(t)), st.just("invalid_json")),
    st.tuples(st.builds(json.dumps, json_values.filter(lambda v: not isinstance(v, dict))), st.just("invalid_json")),
    st.tuples(
        st.builds(lambda extra, kind: json.dumps({**extra, "type": kind}),
                  st.dictionaries(st.text(max_size=8), json_values, max_size=3),
                  (st.text(max_size=30) | not_str).filter(lambda k: k not in KNOWN_TYPES)),
        st.just("unknown_event"),
    ),
    st.tuples(
        st.one_of(
            st.builds(_wrong_field, st.just("input_audio_buffer.append"), st.just("audio"), not_str),
            st.builds(_wrong_field, st.just("conversation.item.create"), st.just("item"), not_dict),
            st.builds(lambda c: {"type": "conversation.item.create", "item": {"content": c}},
                      json_values.filter(lambda v: not isinstance(v, list))),
            st.builds(_wrong_field, st.just("conversation.item.truncate"), st.just("item_id"), not_str, audio_end_ms=st.just(5)),
            st.builds(_wrong_field, st.just("conversation.item.truncate"), st.just("audio_end_ms"), not_int,
                      item_id=st.just("item_x")),
            st.builds(_wrong_field, st.just("session.update"), st.just("session"), not_dict),
            st.builds(_wrong_field, st.just("response.create"), st.just("response"), not_dict.filter(lambda v: v is not None)),
            st.builds(_wrong_field, st.just("response.cancel"), st.just("response_id"), not_str.filter(lambda v: v is not None)),
        ).map(json.dumps),
        st.just("invalid_event"),
    ),
    st.tuples(
        st.builds(lambda a: json.dumps({"type": "input_audio_buffer.append", "audio": a}),
                  st.text(min_size=1, max_size=40).filter(lambda a: not _is_base64(a))),
        st.just("invalid_audio"),
    ),
    st.tuples(st.binary(min_size=1, max_size=999).filter(lambda b: len(b) % 2 == 1), st.just("invalid_audio")),
)


def _parses_to_object(text: str) -> bool:
    try:
        return isinstance(json.loads(text), dict)
    except ValueError:
        return False


def _next_error(ws) -> dict:  # type: ignore[no-untyped-def]
    while True:
        frame = ws.recv(timeout=15)
        if isinstance(frame, str) and (event := json.loads(frame))["type"] == "error":
            return event["error"]


def test_fuzzed_malformed_messages_each_get_an_error_with_the_right_code(main: Server):
    with connect_sync(main.ws_url, max_size=None) as ws:
        assert json.loads(ws.recv(timeout=15))["type"] == "session.created"

        @hypothesis_settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
        @given(malformed_events)
        def check(case: tuple[str | bytes, str]) -> None:
            frame, code = case
            ws.send(frame)
            error = _next_error(ws)
            assert error["code"] == code, (frame, error)
            assert error["message"]

        check()
        ws.send(json.dumps({"type": "session.update", "session": {"instructions": "fuzzed"}}))
        while (event := json.loads(ws.recv(timeout=15)))["type"] != "session.updated":
            pass
        assert event["session"]["instructions"] == "fuzzed"


def test_fuzzed_events_of_every_type_never_break_the_session(main: Server, parts: Parts):
    events = st.builds(lambda kind, body: json.dumps({**body, "type": kind}),
                       st.sampled_from(KNOWN_TYPES), st.dictionaries(st.sampled_from(
                           ["session", "audio", "item", "item_id", "audio_end_ms", "content_index", "response",
                            "response_id", "event_id", "previous_item_id"]), json_values, max_size=4))
    probes = iter(range(10**6))
    with connect_sync(main.ws_url, max_size=None) as ws:
        assert json.loads(ws.recv(timeout=15))["type"] == "session.created"

        @hypothesis_settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
        @given(events)
        def check(frame: str) -> None:
            marker = f"probe {next(probes)}"
            ws.send(frame)
            ws.send(json.dumps({"type": "session.update", "session": {"instructions": marker}}))
            while True:
                received = ws.recv(timeout=60)
                if isinstance(received, bytes):
                    continue
                event = json.loads(received)
                assert not (event["type"] == "error" and event["error"]["code"] == "internal_error"), (frame, event)
                if event["type"] == "session.updated" and event["session"]["instructions"] == marker:
                    return

        check()
    wait_for_sessions(main.base_url, 0)
    deadline = time.monotonic() + 30
    while not engine_idle(parts.engine) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert engine_idle(parts.engine)


# ---------------------------------------------------------------------- faults


async def _first_output(client: RealtimeClient, after: int, audio: bool) -> None:
    kind = "response.output_audio_transcript.delta" if audio else "response.output_text.delta"
    await client.wait_for(kind, after=after, timeout=120)
    if audio:
        deadline = time.monotonic() + 120
        while client.current is None or client.current.first_audio_at is None:
            assert time.monotonic() < deadline, "no reply audio"
            await asyncio.sleep(0.02)


async def _until(predicate, timeout: float = 15.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.05)


@pytest.mark.parametrize("audio", [False, True], ids=["text", "voice"])
async def test_leaving_mid_reply_cancels_the_engine_request_frees_kv_and_drops_tts_work(main: Server, parts: Parts, audio: bool):
    await asyncio.to_thread(wait_for_sessions, main.base_url, 0)
    client = RealtimeClient(main.ws_url)
    await client.connect()
    await client.send({"type": "session.update",
                       "session": {"instructions": LONG_REPLY, "output_modalities": ["audio" if audio else "text"]}})
    await client.wait_for("session.updated")
    seen = len(client.events)
    await client.say_text("Tell me a long story about a dragon and a lighthouse.")
    await _first_output(client, seen, audio)
    assert client.current is not None, "the reply ended before the client left; the test proves nothing"
    stats = parts.engine.stats()
    assert stats["running"] + stats["waiting"] == 1 and stats["kv_blocks_used"] > 0
    await client.close()
    await _until(lambda: engine_idle(parts.engine))
    await _until(lambda: parts.tts.stats()["tts_queued"] == 0 and not parts.tts.stats()["tts_busy"])
    chunks = parts.tts.stats()["tts_chunks"]
    await asyncio.sleep(1.0)
    assert parts.tts.stats()["tts_chunks"] == chunks, "speech was still made for a client that left"
    engine = get_json(main.base_url + "/api/dashboard")["engine"]
    assert engine["running"] == 0 and engine["kv_used_blocks"] == 0


async def test_a_failing_recognizer_fails_only_that_sessions_turn(main: Server, parts: Parts, question: np.ndarray):
    await asyncio.to_thread(wait_for_sessions, main.base_url, 0)
    faulty = RealtimeClient(main.ws_url)
    healthy = RealtimeClient(main.ws_url)
    async with faulty, healthy:
        parts.recognizer.failing_sessions.add(faulty.session["id"])
        await asyncio.gather(faulty.stream_audio(question), healthy.stream_audio(question))
        error = await faulty.wait_for("error", timeout=120)
        assert error["error"]["code"] == "stage_failed" and "speech recognition" in error["error"]["message"]
        reply = await healthy.next_reply(timeout=180)
        assert reply.status in ("completed", "incomplete") and reply.audio and not codes(healthy)
        seen = len(faulty.events)
        await faulty.say_text("Are you still there?")
        assert (await faulty.next_reply(after=seen, timeout=180)).status in ("completed", "incomplete")


async def test_a_failing_synthesiser_fails_only_that_reply(main: Server, parts: Parts):
    await asyncio.to_thread(wait_for_sessions, main.base_url, 0)
    async with RealtimeClient(main.ws_url) as voice, RealtimeClient(main.ws_url) as text:
        await text.send({"type": "session.update", "session": {"output_modalities": ["text"]}})
        await text.wait_for("session.updated")
        parts.tts.fail_next = 1
        await asyncio.gather(voice.say_text("Say something nice."), text.say_text("Say something kind."))
        failed, other = await asyncio.gather(voice.next_reply(timeout=180), text.next_reply(timeout=180))
        assert failed.status == "failed" and codes(voice) == ["stage_failed"]
        assert other.status in ("completed", "incomplete") and other.text and not codes(text)
        seen = len(voice.events)
        await voice.say_text("Try again, please.")
        again = await voice.next_reply(after=seen, timeout=180)
        assert again.status in ("completed", "incomplete") and len(again.audio) > 0


async def test_a_failing_engine_step_fails_only_that_request_and_the_engine_goes_on(main: Server, parts: Parts):
    await asyncio.to_thread(wait_for_sessions, main.base_url, 0)
    healthy = RealtimeClient(main.ws_url)
    faulty = RealtimeClient(main.ws_url)
    async with healthy, faulty:
        parts.engine.failing_sessions.add(faulty.session["id"])
        for client in (healthy, faulty):
            await client.send({"type": "session.update", "session": {"instructions": LONG_REPLY, "output_modalities": ["text"]}})
            await client.wait_for("session.updated")
        story = [{"type": "input_text", "text": "A story about a fox?"}]
        await healthy.send({**TYPED, "item": {**TYPED["item"], "content": story}})
        await healthy.send({"type": "response.create", "response": {"max_output_tokens": 60}})
        await healthy.wait_for("response.output_text.delta", timeout=120)
        await faulty.say_text("Tell me a long story about a bear.")  # joins the running batch
        failed = await faulty.next_reply(timeout=120)
        assert failed.status == "failed" and codes(faulty) == ["stage_failed"]
        survived = await healthy.next_reply(timeout=180)
        assert parts.engine.shared_failures >= 1, "the failing request never shared a step with the other one"
        assert survived.status in ("completed", "incomplete") and len(survived.text) > 20 and not codes(healthy)
        seen = len(healthy.events)
        await healthy.send({**TYPED, "item": {**TYPED["item"], "content": [{"type": "input_text", "text": "And a cat?"}]}})
        await healthy.send({"type": "response.create", "response": {"max_output_tokens": 20}})
        assert (await healthy.next_reply(after=seen, timeout=180)).status in ("completed", "incomplete")
    await _until(lambda: engine_idle(parts.engine))


# ---------------------------------------------------------------------- load


def test_short_load_run_has_no_errors_and_no_leaks(main: Server, tmp_path):
    from app.bench import load

    wait_for_sessions(main.base_url, 0)
    parser = argparse.ArgumentParser()
    load.add_arguments(parser)
    args = parser.parse_args(["--url", main.ws_url, "--sessions", "3", "--minutes", "0.33", "--interrupt-share", "0.5"])
    args.json_path = str(tmp_path / "load.json")
    result = load.run(args, main.settings)
    assert result["errors"] == 0
    assert result["voice_turns"] >= 1 and result["text_turns"] >= 1
    assert result["v2v_p95_s"] is not None
    # users spoke over replies and cancelled them: each interrupted reply ended, and the conversation went on
    landed = result["barge_ins"] - result["barge_ins_late"] + result["cancels"] - result["cancels_late"]
    assert result["barge_ins"] >= 1 and result["cancels"] >= 1 and landed >= 1
    assert result["kv_leaked_blocks"] == 0 and result["engine_requests_left"] == 0 and result["sessions_left"] == 0
    assert json.loads((tmp_path / "load.json").read_text())["errors"] == 0
