"""The WebSocket endpoint with a real server on 127.0.0.1 and small fakes of the engine, recogniser and
speech out (the VAD is the real silero): how browsers authenticate (subprotocols), frames of the wrong
kind, hostile JSON, large appends and the limits the session announces."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator

import pytest
from realtime_fakes import FakeEngine, FakeRecognizer, FakeSpeech
from sdk_conformance import sdk_rejections
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from app.config import Settings
from app.web.server import ServerThread, create_app

pytestmark = pytest.mark.usefixtures("sdk_checked_events")

TOKEN = "open-sesame"


@pytest.fixture(scope="module")
def ws_base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    settings = Settings(data_dir=tmp_path_factory.mktemp("realtime-server"), access_token=TOKEN)
    app = create_app(settings, engine=FakeEngine(), recognizer=FakeRecognizer(), tts=FakeSpeech())
    with ServerThread(app) as base_url:
        yield base_url.replace("http://", "ws://")


def browser(url: str, key: str = TOKEN) -> ClientConnection:
    return connect(url, subprotocols=["realtime", f"openai-insecure-api-key.{key}"], max_size=None)  # type: ignore[list-item]


def next_event(ws: ClientConnection, kind: str) -> dict:
    while True:
        frame = ws.recv(timeout=30)
        if isinstance(frame, str) and (event := json.loads(frame))["type"] == kind:
            assert sdk_rejections([event]) == []
            return event


def goes_on(ws: ClientConnection, marker: str) -> None:
    ws.send(json.dumps({"type": "session.update", "session": {"instructions": marker}}))
    assert next_event(ws, "session.updated")["session"]["instructions"] == marker


def test_a_browser_authenticates_with_subprotocols_and_learns_its_limits(ws_base: str):
    with browser(ws_base + "/v1/realtime") as ws:
        assert ws.subprotocol == "realtime"
        next_event(ws, "session.created")
        limits = next_event(ws, "rate_limits.updated")["rate_limits"]
        assert limits == [{"name": "requests", "limit": 200, "remaining": 200, "reset_seconds": 1.0}]
    with browser(ws_base + "/v1/realtime", key="wrong") as ws:
        assert next_event(ws, "error")["error"]["code"] == "unauthorized"
        with pytest.raises(ConnectionClosed):
            ws.recv(timeout=10)
        assert ws.close_code == 1008


def test_frames_of_the_wrong_kind_get_an_error_and_the_session_goes_on(ws_base: str):
    with browser(ws_base + "/v1/realtime") as ws:  # base64 audio: binary frames carry nothing here
        ws.send(b"\x00\x01" * 160)
        assert next_event(ws, "error")["error"]["code"] == "unexpected_binary_frame"
        goes_on(ws, "after a binary frame")
    with browser(ws_base + "/ws") as ws:  # binary audio: a JSON event in a binary frame is a mistake
        ws.send(json.dumps({"type": "response.create"}).encode())
        assert next_event(ws, "error")["error"]["code"] == "unexpected_binary_frame"
        goes_on(ws, "after JSON as binary")


@pytest.mark.parametrize(
    ("frame", "code", "param"),
    [
        ('{"type": "session.update", "session": ' + "[" * 5000 + "]" * 5000 + "}", "invalid_json", None),
        ('{"type": "session.update", "session": {"instructions": "\\udc00 hello"}}', "invalid_event", "session.instructions"),
        ('{"type": "session.update", "session": {"voice": "\\ud83d"}}', "invalid_event", "session.voice"),
        ('{"type": "response.create", "response": {"max_output_tokens": ' + str(10**400) + "}}", "invalid_event",
         "response.max_output_tokens"),
        ('{"type": "session.update", "session": {"audio": {"input": {"turn_detection": {"prefix_padding_ms": 99999}}}}}',
         "invalid_event", "session.audio.input.turn_detection.prefix_padding_ms"),
    ],
)
def test_hostile_json_gets_a_precise_error_and_the_session_goes_on(ws_base: str, frame: str, code: str, param: str | None):
    with browser(ws_base + "/v1/realtime") as ws:
        next_event(ws, "session.created")
        ws.send(frame)
        error = next_event(ws, "error")["error"]
        assert (error["code"], error["param"]) == (code, param) and error["message"]
        goes_on(ws, "still here")


def test_appends_up_to_15_mib_are_read_within_the_audio_budget(ws_base: str):
    with browser(ws_base + "/v1/realtime") as ws:
        next_event(ws, "session.created")
        ws.send(json.dumps({"type": "session.update", "session": {"audio": {"input": {"turn_detection": None}}}}))
        next_event(ws, "session.updated")
        ten_seconds = base64.b64encode(bytes(24000 * 2 * 10)).decode()  # 24 kHz PCM16: within max_utterance_s
        ws.send(json.dumps({"type": "input_audio_buffer.append", "audio": ten_seconds}))
        ws.send(json.dumps({"type": "input_audio_buffer.commit"}))
        assert next_event(ws, "input_audio_buffer.committed")["item_id"]
        largest = base64.b64encode(bytes(15 * 1024**2)).decode()  # 327 s of audio: over the 90 s a minute
        ws.send(json.dumps({"type": "input_audio_buffer.append", "audio": largest}))
        while (error := next_event(ws, "error")["error"])["code"] == "empty_input":  # the fake ASR hears nothing
            pass
        assert error["code"] == "audio_rate_exceeded"
        goes_on(ws, "after 15 MiB")
