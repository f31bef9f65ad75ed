"""The WebSocket protocol against the real server (real models, real SQLite) on 127.0.0.1.

Clients are real WebSocket clients (the project's simulated client and the official ``openai``
SDK); speech is espeak-ng audio streamed in real time.
"""

from __future__ import annotations

import asyncio
import base64
import json
import sqlite3
import urllib.request
from collections.abc import Iterator
from email.message import Message
from pathlib import Path

import numpy as np
import pytest
import websockets

from app.audio import float32_to_pcm16, resample
from app.bench.client import RealtimeClient, ReplyRecord
from app.bench.speech_samples import espeak_speech
from app.config import Settings
from app.web.realtime.wire import INPUT_RATE
from app.web.server import MAX_FRAME_BYTES, ServerThread, create_app

pytestmark = pytest.mark.usefixtures("sdk_checked_events")

MAX_SESSIONS = 4
LONG_REPLY = "You are a storyteller. Always answer with a long story of at least ten sentences."


@pytest.fixture(scope="module")
def server_settings(settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> Settings:
    return settings.model_copy(update={"max_sessions": MAX_SESSIONS, "data_dir": tmp_path_factory.mktemp("web")})


@pytest.fixture(scope="module")
def base_url(server_settings: Settings, prepared) -> Iterator[str]:
    with ServerThread(create_app(server_settings, prepared=prepared)) as url:
        yield url


@pytest.fixture(scope="module")
def ws_url(base_url: str) -> str:
    return base_url.replace("http://", "ws://") + "/ws"


@pytest.fixture(scope="module")
def question() -> np.ndarray:
    return espeak_speech("What is the capital of France?")


def history_rows(settings: Settings, session_id: str) -> list[tuple[str, str, str]]:
    db = sqlite3.connect(str(Path(settings.data_dir) / "history.sqlite3"))
    try:
        return db.execute(
            "SELECT item_id, role, text FROM messages WHERE session_id = ? ORDER BY seq", (session_id,)
        ).fetchall()
    finally:
        db.close()


def rms(audio: np.ndarray) -> float:
    return float(np.sqrt(np.mean(np.square(audio)))) if len(audio) else 0.0


def get(url: str) -> tuple[int, Message, bytes]:
    """Status, headers (case-insensitive) and body of a GET."""
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.status, response.headers, response.read()


async def wait_until_no_sessions(base_url: str, timeout: float = 10.0) -> None:
    """Sessions of earlier tests end when the server sees their close; wait for that."""
    for _ in range(int(timeout / 0.05)):
        if json.loads(get(base_url + "/healthz")[2])["sessions"] == 0:
            return
        await asyncio.sleep(0.05)
    raise TimeoutError("sessions of earlier tests are still open")


# ---------------------------------------------------------------------- HTTP routes


def test_pages_static_files_health_metrics_and_dashboard_data(base_url: str):
    status, headers, body = get(base_url + "/")
    assert status == 200 and b"<html" in body.lower() and "voicechat_session=" in headers.get("Set-Cookie", "")
    assert get(base_url + "/dashboard")[0] == 200
    for path in ("/static/js/capture-worklet.js", "/static/js/chat.js"):
        status, headers, _ = get(base_url + path)
        assert status == 200 and headers["content-type"].startswith("text/javascript")
    assert get(base_url + "/static/css/style.css")[1]["content-type"].startswith("text/css")
    assert get(base_url + "/favicon.ico")[1]["content-type"].startswith("image/svg+xml")
    health = json.loads(get(base_url + "/healthz")[2])
    assert health["status"] == "ok" and health["max_sessions"] == MAX_SESSIONS
    metrics = get(base_url + "/metrics")[2].decode()
    assert "voicechat_sessions" in metrics and "voicechat_stage_latency_seconds" in metrics
    data = json.loads(get(base_url + "/api/dashboard")[2])
    assert set(data) >= {"time", "uptime_s", "sessions", "engine", "latency", "series"}
    assert data["sessions"]["max"] == MAX_SESSIONS
    assert set(data["engine"]["queue"]) == {"voice", "text", "background"}
    assert data["engine"]["kv_total_blocks"] > 0
    assert "total_ms" in data["latency"]["stages"]


# ---------------------------------------------------------------------- errors


async def test_every_bad_message_gets_an_error_code_and_the_session_goes_on(ws_url: str):
    async with RealtimeClient(ws_url) as client:
        cases = [
            ("{not json", "invalid_json"),
            ('"a string"', "invalid_json"),
            ('{"type": "warp.speed"}', "unknown_event"),
            ('{"event_id": "e7", "type": "conversation.item.truncate", "item_id": 5, "audio_end_ms": 1}', "invalid_event"),
            ('{"type": "conversation.item.create"}', "invalid_event"),
            ('{"type": "input_audio_buffer.append", "audio": "%%%"}', "invalid_audio"),
            ('{"type": "session.update", "session": {"audio": {"output": {"format": {"type": "audio/pcmu"}}}}}',
             "unsupported_audio_format"),
            ('{"type": "conversation.item.truncate", "item_id": "item_nope", "content_index": 0, "audio_end_ms": 10}',
             "item_not_found"),
            ('{"type": "response.cancel"}', "response_not_found"),
            ('{"type": "input_audio_buffer.commit"}', "empty_input"),
            # the served tiny.en transcribes English only
            ('{"type": "session.update", "session": {"audio": {"input": {"transcription": {"language": "fr"}}}}}',
             "unsupported_feature"),
        ]
        for frame, code in cases:
            seen = len(client.events)
            await client.send_raw(frame)
            error = await client.wait_for("error", after=seen, timeout=10)
            assert error["error"]["code"] == code, frame
            assert error["error"]["message"]
        assert client.events[-1]["error"]["event_id"] is None
        assert any(e.get("error", {}).get("event_id") == "e7" for e in client.events)
        seen = len(client.events)
        await client.send_raw(b"\x00\x01\x02")  # odd-length PCM16
        assert (await client.wait_for("error", after=seen, timeout=10))["error"]["code"] == "invalid_audio"
        seen = len(client.events)
        await client.send_raw("x" * 10 + '{"type": "conversation.item.create", "item": {"content": '
                              '[{"type": "input_text", "text": "' + "y" * 5000 + '"}]}}')
        assert (await client.wait_for("error", after=seen, timeout=10))["error"]["code"] == "invalid_json"
        seen = len(client.events)
        await client.send({"type": "conversation.item.create",
                           "item": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "y" * 5000}]}})
        assert (await client.wait_for("error", after=seen, timeout=10))["error"]["code"] == "text_too_long"
        seen = len(client.events)
        await client.send({"type": "session.update", "session": {"instructions": "still here"}})
        updated = await client.wait_for("session.updated", after=seen, timeout=10)
        assert updated["session"]["instructions"] == "still here"


async def test_a_frame_over_the_size_limit_closes_with_1009(ws_url: str):
    async with RealtimeClient(ws_url) as client:
        await client.send_raw(b"\x00" * (MAX_FRAME_BYTES + 2))
        assert await client.closed() == 1009


async def test_a_full_server_says_so_and_closes_with_1013(ws_url: str, base_url: str):
    await wait_until_no_sessions(base_url)
    clients = [RealtimeClient(ws_url) for _ in range(MAX_SESSIONS)]
    for client in clients:
        await client.connect()
    try:
        async with websockets.connect(ws_url) as extra:
            event = json.loads(await extra.recv())
            assert event["type"] == "error" and event["error"]["code"] == "server_full"
            assert "full" in event["error"]["message"]
            with pytest.raises(websockets.ConnectionClosed):
                await extra.recv()
            assert extra.close_code == 1013
    finally:
        for client in clients:
            await client.close()


# ---------------------------------------------------------------------- typed conversation


async def test_typed_turn_streams_text_and_is_stored_before_response_done(ws_url: str, server_settings: Settings):
    async with RealtimeClient(ws_url) as client:
        session_id = client.session["id"]
        assert client.session["audio"]["output"]["format"] == {"type": "audio/pcm", "rate": 24000}
        await client.send({"type": "session.update", "session": {"output_modalities": ["text"]}})
        await client.wait_for("session.updated")
        await client.say_text("What is the capital of France?")
        user_item = await client.wait_for("conversation.item.done", lambda e: e["item"]["role"] == "user")
        assert user_item["item"]["content"] == [{"type": "input_text", "text": "What is the capital of France?"}]
        reply = await client.next_reply()
        rows = history_rows(server_settings, session_id)  # read right at response.done
        assert reply.status in ("completed", "incomplete") and reply.text.strip() and not reply.audio
        deltas = [e for e in client.events if e["type"] == "response.output_text.delta"]
        assert len(deltas) > 1 and all(e["response_id"] == reply.response_id for e in deltas)
        assert {"item_id", "output_index", "content_index"} <= set(deltas[0])
        done = next(e for e in client.events if e["type"] == "response.output_text.done")
        assert done["text"] == reply.text.strip()
        latency = reply.done["latency"]
        assert latency["endpoint_ms"] is None and latency["llm_first_token_ms"] > 0 and latency["total_ms"] > 0
        usage = reply.done["usage"]  # the prompt (system prompt, template, question) counts as input
        assert usage["input_tokens"] > 10 and usage["total_tokens"] == usage["input_tokens"] + usage["output_tokens"]
        assert [(role, text) for _, role, text in rows] == [
            ("user", "What is the capital of France?"),
            ("assistant", reply.text.strip()),
        ]
        # a second response.create while one runs is refused; response.cancel stops it
        await client.send({"type": "session.update", "session": {"instructions": LONG_REPLY}})
        seen = len(client.events)
        await client.say_text("Tell me about the sea.")
        await client.wait_for("response.output_text.delta", after=seen)
        await client.send({"type": "response.create"})
        busy = await client.wait_for("error", after=seen)
        assert busy["error"]["code"] == "conversation_already_has_active_response"
        await client.send({"type": "response.cancel"})
        cancelled = await client.next_reply(after=seen)
        assert cancelled.status == "cancelled"
        assert cancelled.done["status_details"]["reason"] == "client_cancelled"


async def test_out_of_band_responses_run_beside_the_reply_over_their_own_context_and_are_not_stored(
    ws_url: str, server_settings: Settings
):
    async with RealtimeClient(ws_url) as client:
        session_id = client.session["id"]
        await client.send({"type": "session.update", "session": {"output_modalities": ["text"]}})
        await client.wait_for("session.updated")
        await client.say_text("My favourite drink is green tea.")
        user_item = (await client.wait_for("conversation.item.done", lambda e: e["item"]["role"] == "user"))["item"]
        await client.next_reply()
        stored = history_rows(server_settings, session_id)

        # a long reply in the conversation, and an out-of-band question about the first message beside it
        await client.send({"type": "session.update", "session": {"instructions": LONG_REPLY}})
        seen = len(client.events)
        await client.say_text("Tell me a long story about the sea.")
        main_id = (await client.wait_for("response.created", after=seen))["response"]["id"]
        await client.wait_for("response.output_text.delta", after=seen)
        await client.send({"type": "response.create", "response": {  # a few tokens: done well before the story
            "conversation": "none", "metadata": {"purpose": "topic"}, "output_modalities": ["text"],
            "instructions": "Answer in a few words.", "max_output_tokens": 8,
            "input": [{"type": "item_reference", "id": user_item["id"]},
                      {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Which drink?"}]}],
        }})  # fmt: skip
        side_created = await client.wait_for(
            "response.created", lambda e: e["response"]["conversation_id"] is None, after=seen
        )
        side_id = side_created["response"]["id"]
        assert side_created["response"]["metadata"] == {"purpose": "topic"}
        side_done = await client.wait_for("response.done", lambda e: e["response"]["id"] == side_id, after=seen)
        assert client.replies[main_id].done is None  # the story goes on meanwhile
        assert side_done["response"]["status"] in ("completed", "incomplete")
        assert side_done["response"]["metadata"] == {"purpose": "topic"}
        side = client.replies[side_id]
        assert side.text.strip() and side.text.strip() == side_done["response"]["output"][0]["content"][0]["text"]
        side_item = side_done["response"]["output"][0]["id"]
        assert not any(e["type"].startswith("conversation.item") and e.get("item", {}).get("id") == side_item
                       for e in client.events)  # fmt: skip
        await client.send({"type": "response.cancel"})
        cancelled = (await client.wait_for("response.done", lambda e: e["response"]["id"] == main_id, after=seen))["response"]
        assert cancelled["status"] == "cancelled" and cancelled["conversation_id"] == session_id
        rows = history_rows(server_settings, session_id)
        assert rows[: len(stored)] == stored and all(item_id != side_item for item_id, _, _ in rows)

        # cancelled by its id; and the mistakes a client can make get their codes
        seen = len(client.events)
        await client.send({"type": "response.create", "response": {"conversation": "none", "input": []}})
        created = await client.wait_for("response.created", after=seen)
        await client.send({"type": "response.cancel", "response_id": created["response"]["id"]})
        assert (await client.next_reply(after=seen)).status == "cancelled"
        for response, code in [
            ({"conversation": "other"}, "invalid_event"),
            ({"conversation": "none", "tools": [{"type": "function", "name": "now"}]}, "tools_unsupported"),
            ({"conversation": "none", "output_modalities": ["audio"]}, "invalid_event"),
            ({"conversation": "none", "metadata": {str(i): "x" for i in range(17)}}, "invalid_event"),
            ({"conversation": "none", "input": [{"type": "item_reference", "id": "item_nope"}]}, "item_not_found"),
        ]:
            seen = len(client.events)
            await client.send({"type": "response.create", "response": response})
            assert (await client.wait_for("error", after=seen))["error"]["code"] == code, response


async def test_openai_sdk_realtime_client_holds_a_typed_conversation(base_url: str):
    from openai import AsyncOpenAI

    client = AsyncOpenAI(api_key="not-needed", base_url=base_url + "/v1",
                         websocket_base_url=base_url.replace("http://", "ws://") + "/v1")
    async with client.realtime.connect(model="smollm2-135m") as connection:
        await connection.session.update(session={"type": "realtime", "output_modalities": ["text"],
                                                 "instructions": "Answer in one short sentence."})
        texts: list[str] = []
        for question in ("What is the capital of France?", "And of Italy?"):
            await connection.conversation.item.create(
                item={"type": "message", "role": "user", "content": [{"type": "input_text", "text": question}]}
            )
            await connection.response.create()
            text, kinds = "", []
            async for event in connection:
                kinds.append(event.type)
                if event.type == "error":
                    pytest.fail(f"error event: {event.error}")
                if event.type == "response.output_text.delta":
                    text += event.delta
                if event.type == "response.done":
                    assert event.response.status in ("completed", "incomplete")
                    assert event.response.id and event.response.output[0].role == "assistant"
                    break
            assert "session.updated" in kinds or texts
            assert "response.created" in kinds and "response.output_text.done" in kinds
            assert text.strip()
            texts.append(text)
    assert len(texts) == 2


async def test_openai_sdk_realtime_client_holds_a_spoken_turn(base_url: str, question: np.ndarray):
    """Audio in (24 kHz base64 appends, server VAD), audio out, every event parsed by the SDK's models."""
    from openai import AsyncOpenAI

    client = AsyncOpenAI(api_key="not-needed", base_url=base_url + "/v1",
                         websocket_base_url=base_url.replace("http://", "ws://") + "/v1")
    pcm = float32_to_pcm16(resample(np.concatenate([question, np.zeros(24000, np.float32)]), 16000, 24000))
    async with client.realtime.connect(model="smollm2-135m") as connection:
        await connection.session.update(session={"type": "realtime", "output_modalities": ["audio"],
                                                 "instructions": "Answer in one short sentence."})  # fmt: skip
        for offset in range(0, len(pcm), 4800):  # 100 ms appends, faster than real time
            await connection.input_audio_buffer.append(audio=base64.b64encode(pcm[offset : offset + 4800]).decode())
            await asyncio.sleep(0.02)
        audio, transcript, heard_s = b"", "", 0.0
        async for event in connection:
            if event.type == "error":
                pytest.fail(f"error event: {event.error}")
            if event.type == "conversation.item.input_audio_transcription.completed":
                transcript, heard_s = event.transcript, event.usage.seconds  # type: ignore[union-attr]
            if event.type == "response.output_audio.delta":
                audio += base64.b64decode(event.delta)
            if event.type == "response.done":
                assert event.response.status in ("completed", "incomplete") and event.response.usage is not None
                assert event.response.usage.output_tokens and event.response.output[0].type == "message"
                break
    assert "capital" in transcript.lower() and heard_s > 1.0
    assert len(audio) > 24000  # over half a second of reply audio at 24 kHz


# ---------------------------------------------------------------------- spoken conversation


async def test_spoken_question_gets_transcript_reply_text_and_audio(ws_url: str, question: np.ndarray):
    async with RealtimeClient(ws_url) as client:
        speech_end = await client.stream_audio(question, trailing_silence_s=1.5)
        started = await client.wait_for("input_audio_buffer.speech_started")
        stopped = await client.wait_for("input_audio_buffer.speech_stopped")
        assert stopped["item_id"] == started["item_id"] and stopped["audio_end_ms"] > started["audio_start_ms"]
        await client.wait_for("input_audio_buffer.committed", lambda e: e["item_id"] == started["item_id"])
        transcript = await client.wait_for("conversation.item.input_audio_transcription.completed")
        assert "capital" in transcript["transcript"].lower()
        reply = await client.next_reply()
        assert reply.status in ("completed", "incomplete") and reply.text.strip()
        audio = reply.audio_float()
        assert len(audio) / 24000 > 0.5 and rms(audio) > 0.01  # 24 kHz by default, and not silence
        assert reply.first_audio_at is not None and reply.first_audio_at > speech_end
        latency = reply.done["latency"]
        for stage in ("endpoint_ms", "asr_ms", "llm_first_token_ms", "first_clause_ms", "tts_first_chunk_ms",
                      "send_ms", "total_ms"):
            assert latency[stage] is not None and latency[stage] >= 0, stage
        assert latency["endpoint_ms"] > 100  # the VAD hangover is part of it
        transcript_done = next(e for e in client.events if e["type"] == "response.output_audio_transcript.done")
        assert transcript_done["transcript"] == reply.text.strip()


def words(text: str) -> list[str]:
    return "".join(c if c.isalnum() else " " for c in text.lower()).split()


async def test_openai_style_client_sends_base64_24khz_audio_and_gets_base64_audio(
    base_url: str, question: np.ndarray, prepared
):
    url = base_url.replace("http://", "ws://") + "/v1/realtime?model=any"
    async with RealtimeClient(url) as client:
        assert client.session["audio"]["input"]["format"]["rate"] == 24000
        await client.send({"type": "session.update", "session": {
            "type": "realtime", "instructions": "Answer in one short sentence.",
            "audio": {"output": {"format": {"type": "audio/pcm", "rate": 16000}}}}})
        await client.wait_for("session.updated")
        await client.stream_audio(question, base64_rate=24000, trailing_silence_s=1.5)
        transcript = await client.wait_for("conversation.item.input_audio_transcription.completed")
        assert "capital" in transcript["transcript"].lower()
        reply = await client.next_reply()
        assert any(e["type"] == "response.output_audio.delta" for e in client.events)
        assert rms(reply.audio_float()) > 0.01
    # the audio really is at the declared 16 kHz: Whisper (16 kHz) hears the reply's words in it. Offline Whisper, which
    # decodes with timestamps and seeks on: without them Whisper can end at a sentence end before a repeated phrase (a
    # looping reply of the small test model, "... friends are: Elon Musk, AI, Elon Musk, AI, ...", heard only up to
    # "are", though the audio says it all)
    import whisper

    model = whisper.load_model(str(prepared.whisper_pt), device="cpu")
    heard = set(words(model.transcribe(reply.audio_float(), language="en", fp16=False, temperature=0.0)["text"]))
    said = words(reply.text)
    assert sum(w in heard for w in said) >= 0.6 * len(said), (reply.text, heard)


async def test_a_recorded_audio_item_is_transcribed_stored_and_answered(
    base_url: str, question: np.ndarray, server_settings: Settings
):
    url = base_url.replace("http://", "ws://") + "/v1/realtime?model=any"  # input at OpenAI's 24 kHz
    audio = base64.b64encode(float32_to_pcm16(resample(question, 16000, 24000))).decode()
    async with RealtimeClient(url) as client:
        await client.send({"type": "session.update", "session": {"output_modalities": ["text"]}})
        await client.wait_for("session.updated")
        seen = len(client.events)
        await client.send({"type": "conversation.item.create", "item": {
            "type": "message", "role": "user", "content": [{"type": "input_audio", "audio": audio}]}})
        done = await client.wait_for("conversation.item.done", after=seen)
        transcript = await client.wait_for("conversation.item.input_audio_transcription.completed", after=seen)
        assert transcript["item_id"] == done["item"]["id"] and "capital" in transcript["transcript"].lower()
        assert done["item"]["content"][0] == {"type": "input_audio", "transcript": transcript["transcript"]}
        await client.send({"type": "response.create"})
        reply = await client.next_reply(after=seen)
        assert reply.status == "completed" and reply.text.strip()
        stored = history_rows(server_settings, client.session["id"])
        assert (done["item"]["id"], "user", transcript["transcript"]) in stored

        seen = len(client.events)
        await client.send({"type": "conversation.item.create", "item": {"type": "message", "role": "user", "content": [
            {"type": "input_audio", "audio": audio}, {"type": "input_text", "text": "and this"}]}})
        error = await client.wait_for("error", after=seen)
        assert error["error"]["code"] == "invalid_event" and error["error"]["param"] == "item.content"


async def test_manual_turns_commit_then_respond(ws_url: str, question: np.ndarray):
    async with RealtimeClient(ws_url) as client:
        await client.send({"type": "session.update", "session": {
            "turn_detection": None, "output_modalities": ["text"],
            "audio": {"input": {"format": {"type": "audio/pcm", "rate": 16000}}}}})
        updated = await client.wait_for("session.updated")
        assert updated["session"]["audio"]["input"]["turn_detection"] is None
        await client.stream_audio(question, realtime=False, base64_rate=16000, trailing_silence_s=0.2)
        await client.send({"type": "input_audio_buffer.commit"})
        committed = await client.wait_for("input_audio_buffer.committed")
        transcript = await client.wait_for("conversation.item.input_audio_transcription.completed")
        assert transcript["item_id"] == committed["item_id"] and "capital" in transcript["transcript"].lower()
        assert not any(e["type"] == "response.created" for e in client.events)  # no reply until asked
        await client.send({"type": "response.create"})
        reply = await client.next_reply()
        assert reply.status in ("completed", "incomplete") and reply.text.strip()


async def audible_reply(client: RealtimeClient, timeout_s: float = 120.0) -> ReplyRecord:
    """Stream silence, as an open microphone does, until a reply's first audio arrives; that reply."""
    frame = np.zeros(INPUT_RATE // 50, np.float32)  # one 20 ms frame
    deadline = asyncio.get_running_loop().time() + timeout_s
    while asyncio.get_running_loop().time() < deadline:
        audible = [r for r in client.replies.values() if r.first_audio_at is not None]
        if audible:
            return audible[0]
        await client.stream_audio(frame, trailing_silence_s=0)
    raise AssertionError(f"no reply was audible within {timeout_s:.0f} s")


async def test_barge_in_cancels_the_reply_and_truncates_history_to_what_was_heard(
    ws_url: str, server_settings: Settings
):
    story = espeak_speech("Please tell me a long story about a brave dragon.")  # a reply that outlasts the interruption
    interruption = espeak_speech("Stop. Tell me something else instead.")
    async with RealtimeClient(ws_url) as client:
        session_id = client.session["id"]
        await client.send({"type": "session.update", "session": {"instructions": LONG_REPLY}})
        await client.wait_for("session.updated")
        # a live microphone sends silence until the user talks again: the turn ends however late the pause's score
        # comes on a busy machine, and the user talks over the reply as soon as it is audible, however fast the
        # machine speaks it (a fast one has the whole reply out a second after its first audio)
        await client.stream_audio(story, trailing_silence_s=0)
        reply = await audible_reply(client)
        seen = len(client.events)
        await client.stream_audio(interruption, trailing_silence_s=1.5)
        barge = await client.wait_for("input_audio_buffer.speech_started", after=seen)
        played_ms = int((barge["_t"] - reply.first_audio_at) * 1000)  # what a real-time player played
        done = await client.wait_for("response.done", lambda e: e["response"]["id"] == reply.response_id)
        assert done["response"]["status"] == "cancelled"
        assert done["response"]["status_details"]["reason"] == "turn_detected"
        # nothing of the cancelled reply arrives after its response.done
        index = client.events.index(done)
        assert not any(e.get("response_id") == reply.response_id for e in client.events[index + 1 :])
        item_id = done["response"]["output"][0]["id"]
        await client.send({"type": "conversation.item.truncate", "item_id": item_id, "content_index": 0,
                           "audio_end_ms": played_ms})
        truncated = await client.wait_for("conversation.item.truncated")
        heard = truncated["transcript"]
        assert truncated["item_id"] == item_id and truncated["audio_end_ms"] == played_ms
        assert len(heard) < len(reply.text.strip())
        assert reply.text.strip().startswith(heard.rstrip(".,;:!? ").split(" ")[0])
        stored = dict((item, text) for item, _, text in history_rows(server_settings, session_id))
        assert stored[item_id] == heard
        # the interruption is a turn of its own and gets its own answer
        second = await client.next_reply(after=index + 1)
        assert second.response_id != reply.response_id and second.text.strip()


# ---------------------------------------------------------------------- resuming


async def receive_until(ws, kind: str, count: int = 1) -> list[dict]:  # type: ignore[no-untyped-def]
    """JSON events of a raw connection up to the ``count``-th of ``kind``."""
    events: list[dict] = []
    while sum(e["type"] == kind for e in events) < count:
        frame = await asyncio.wait_for(ws.recv(), timeout=60)
        if isinstance(frame, str):
            events.append(json.loads(frame))
    return events


async def test_reconnecting_with_the_session_credential_resumes_the_history(ws_url: str, base_url: str):
    request = urllib.request.Request(base_url + "/api/sessions", method="POST")
    with urllib.request.urlopen(request, timeout=30) as response:
        issued = json.loads(response.read())
    header = {"X-Voicechat-Session": issued["credential"]}
    async with websockets.connect(ws_url, additional_headers=header, max_size=None) as ws:
        assert (await receive_until(ws, "session.created"))[0]["session"]["id"] == issued["id"]
        await ws.send(json.dumps({"type": "session.update", "session": {"output_modalities": ["text"]}}))
        await ws.send(json.dumps({"type": "conversation.item.create", "item": {"type": "message", "role": "user",
                                  "content": [{"type": "input_text", "text": "My name is Ada."}]}}))  # fmt: skip
        await ws.send(json.dumps({"type": "response.create"}))
        reply = (await receive_until(ws, "response.done"))[-1]["response"]["output"][0]["content"][0]["text"]
    async with websockets.connect(ws_url, additional_headers=header, max_size=None) as again:
        events = await receive_until(again, "conversation.item.done", 2)
        assert events[0]["session"]["id"] == issued["id"]
        replayed = [e["item"] for e in events if e["type"] == "conversation.item.done"]
        assert [(i["role"], i["content"][0]["text"]) for i in replayed] == [("user", "My name is Ada."), ("assistant", reply)]
        # a second tab asking for the same live conversation gets its own
        async with websockets.connect(ws_url, additional_headers=header) as twin:
            assert (await receive_until(twin, "session.created"))[0]["session"]["id"] != issued["id"]


async def test_a_client_leaving_mid_reply_frees_its_engine_request(ws_url: str, base_url: str):
    await wait_until_no_sessions(base_url)
    client = RealtimeClient(ws_url)
    await client.connect()
    await client.send({"type": "session.update", "session": {"instructions": LONG_REPLY}})
    await client.say_text("Tell me a story about the sea.")
    await client.wait_for("response.output_audio_transcript.delta")
    during = json.loads(get(base_url + "/api/dashboard")[2])
    assert during["sessions"]["active"] == 1
    assert during["sessions"]["list"][0]["id"] == client.session["id"][:8]
    assert during["engine"]["running"] + during["engine"]["queue"]["text"] >= 1
    await client.close()
    await wait_until_no_sessions(base_url)
    for _ in range(100):
        engine = json.loads(get(base_url + "/api/dashboard")[2])["engine"]
        if engine["running"] == 0 and engine["kv_used_blocks"] == 0:
            break
        await asyncio.sleep(0.1)
    assert engine["running"] == 0 and sum(engine["queue"].values()) == 0
    assert engine["kv_used_blocks"] == 0  # blocks kept for prefix reuse count as free


async def test_two_sessions_at_once_each_get_their_own_answer_in_their_own_modality(ws_url: str):
    async with RealtimeClient(ws_url) as spoken, RealtimeClient(ws_url) as typed:
        assert spoken.session["id"] != typed.session["id"]
        await typed.send({"type": "session.update", "session": {"output_modalities": ["text"]}})
        await typed.wait_for("session.updated")
        await asyncio.gather(spoken.say_text("What is the capital of France?"), typed.say_text("Name a large animal."))
        spoken_reply, typed_reply = await asyncio.gather(spoken.next_reply(), typed.next_reply())
        assert spoken_reply.response_id != typed_reply.response_id
        assert rms(spoken_reply.audio_float()) > 0.01  # voice on: a typed message is answered aloud too
        assert not typed_reply.audio and typed_reply.text.strip()
        for client, other in ((spoken, typed_reply), (typed, spoken_reply)):
            assert not any(e.get("response_id") == other.response_id for e in client.events)
        users = [e["item"]["content"][0]["text"] for e in spoken.events
                 if e["type"] == "conversation.item.done" and e["item"]["role"] == "user"]
        assert users == ["What is the capital of France?"]
