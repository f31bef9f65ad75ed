"""semantic_vad on the real server (packaged models, espeak-ng speech streamed in real time on 127.0.0.1): a pause
inside an unfinished question does not end the turn, the same pause after a finished one does."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from app.bench.client import RealtimeClient
from app.bench.speech_samples import espeak_speech, speech_bounds
from app.config import Settings
from app.web.server import ServerThread, create_app

pytestmark = pytest.mark.usefixtures("sdk_checked_events")
PAUSE_S = 1.2  # longer than the server VAD's 400 ms and any short wait, shorter than eagerness low's 1.5 s


@pytest.fixture(scope="module")
def ws_url(settings: Settings, prepared, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    app = create_app(settings.model_copy(update={"data_dir": tmp_path_factory.mktemp("eot")}), prepared=prepared)
    with ServerThread(app) as url:
        yield url.replace("http://", "ws://") + "/ws"


def spoken(*parts: str) -> np.ndarray:
    """The parts said one after another with a pause of ``PAUSE_S`` between them."""
    pieces = []
    for text in parts:
        audio = espeak_speech(text)
        start, end = speech_bounds(audio)
        pieces += [audio[int(start * 16000) : int(end * 16000)], np.zeros(int(PAUSE_S * 16000), np.float32)]
    return np.concatenate(pieces[:-1])


async def user_turns(ws_url: str, audio: np.ndarray) -> list[str]:
    async with RealtimeClient(ws_url) as client:
        await client.send({"type": "session.update", "session": {"audio": {"input": {"turn_detection":
                           {"type": "semantic_vad", "eagerness": "low"}}}}})  # fmt: skip
        updated = await client.wait_for("session.updated")
        assert updated["session"]["audio"]["input"]["turn_detection"]["type"] == "semantic_vad"
        await client.stream_audio(audio, trailing_silence_s=2.5)
        committed = [e["item_id"] for e in client.events if e["type"] == "input_audio_buffer.committed"]
        transcripts = []
        for item_id in committed:
            done = await client.wait_for("conversation.item.input_audio_transcription.completed",
                                         lambda e, i=item_id: e["item_id"] == i, timeout=120)  # fmt: skip
            transcripts.append(done["transcript"].lower())
        return transcripts


async def test_a_pause_inside_an_unfinished_question_keeps_one_turn(ws_url: str):
    transcripts = await user_turns(ws_url, spoken("What is the capital of", "France?"))
    assert len(transcripts) == 1 and "capital" in transcripts[0], transcripts
    assert transcripts[0].split("capital")[-1].strip(" ?.").removeprefix("of").strip(" ?."), transcripts  # "France" too


async def test_the_same_pause_after_a_finished_question_ends_the_turn(ws_url: str):
    transcripts = await user_turns(ws_url, spoken("What is the capital of France?", "Thank you."))
    assert len(transcripts) == 2 and "capital" in transcripts[0] and "capital" not in transcripts[1], transcripts


async def test_switching_turn_detection_keeps_the_sessions_audio_clock(ws_url: str):
    """The second question's speech times come after the first's, and its endpoint is measured from its own end of
    speech, though the session changed its turn detection (a new endpointer) in between, and held a second of audio
    with turn detection off."""
    question = spoken("What is the capital of France?")
    async with RealtimeClient(ws_url) as client:
        stops, endpoints = [], []
        for mode in ("server_vad", None, "semantic_vad"):
            seen = len(client.events)
            detection = None if mode is None else {"type": mode}
            await client.send({"type": "session.update", "session": {"audio": {"input": {"turn_detection": detection}}}})
            await client.wait_for("session.updated", after=seen)
            if mode is None:  # held, then dropped: still a second of the session's audio
                await client.stream_audio(np.zeros(16000, np.float32), trailing_silence_s=0)
                await client.send({"type": "input_audio_buffer.clear"})
                await client.wait_for("input_audio_buffer.cleared", after=seen)
                continue
            await client.stream_audio(question, trailing_silence_s=1.8)
            reply = await client.next_reply(after=seen, timeout=120)
            stops.append(await client.wait_for("input_audio_buffer.speech_stopped", after=seen))
            endpoints.append(reply.done["latency"]["endpoint_ms"])
    first, second = (stop["audio_end_ms"] for stop in stops)
    # the stream: question, 1.8 s of silence, the held second, question again
    assert abs(second - first - 1000 * (len(question) / 16000 + 1.8 + 1.0)) < 100, (first, second)
    assert all(0 < ms < 2000 for ms in endpoints), endpoints
