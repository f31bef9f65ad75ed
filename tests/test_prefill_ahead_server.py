"""Prefill ahead on the real server (packaged models, espeak-ng speech streamed in real time on 127.0.0.1): while the
user speaks, the engine gets the conversation and the words of the partial transcripts, left open, and the reply's
prompt finds them in the prefix cache."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from app.asr import create_recognizer
from app.bench.client import RealtimeClient
from app.bench.speech_samples import espeak_speech
from app.config import Settings
from app.engine.engine import LocalEngine
from app.engine.prompt import render
from app.tts import create_worker
from reliability_helpers import Server, running, serve_parts

pytestmark = pytest.mark.usefixtures("sdk_checked_events")
QUESTION = "Could you please tell me what the capital city of France is?"


class RecordingEngine(LocalEngine):
    """The real engine; keeps each request's arguments and the prefix cache's hits when its first token came."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.requests: list[dict[str, Any]] = []

    async def generate(self, **kwargs: Any):  # type: ignore[override]
        hits_before = self.stats()["prefix_hit_tokens"]
        async for delta in super().generate(**kwargs):
            if "hits" not in kwargs:
                kwargs["hits"] = self.stats()["prefix_hit_tokens"] - hits_before
                self.requests.append(kwargs)
            yield delta


@pytest.fixture(scope="module")
def server(settings: Settings, prepared, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, RecordingEngine]]:
    app_settings = settings.model_copy(update={"data_dir": tmp_path_factory.mktemp("ahead")})
    engine = RecordingEngine(app_settings, prepared.llm_dir)
    recognizer, tts = create_recognizer(app_settings, prepared), create_worker(app_settings, prepared)
    with running(engine, recognizer, tts):
        for served in serve_parts(app_settings, engine, recognizer, tts):
            yield served, engine


async def test_the_words_of_the_partials_are_prefilled_before_the_turn_ends_and_reused_by_the_reply(server):
    served, engine = server
    async with RealtimeClient(served.ws_url) as client:
        await client.stream_audio(espeak_speech(QUESTION), trailing_silence_s=1.5)
        done = await client.wait_for("response.done", timeout=120)
        transcript = next(e["transcript"] for e in client.events
                          if e["type"] == "conversation.item.input_audio_transcription.completed")  # fmt: skip
    assert done["response"]["status"] in ("completed", "incomplete")  # the small test model may talk to its limit
    ahead = [r for r in engine.requests if r["request_id"].startswith("ahead-")]
    assert ahead, [r["request_id"] for r in engine.requests]
    words = ahead[-1]["messages"][-1]
    assert words["role"] == "user" and words["prefix"] is True
    assert transcript.lower().startswith(words["content"].lower()), (words, transcript)
    reply = next(r for r in engine.requests if r["request_id"] == done["response"]["id"])
    opened = render(engine.tokenizer, ahead[-1]["messages"], ahead[-1]["tools"])
    assert reply["hits"] > len(opened) - engine.settings.kv_block_size, (reply["hits"], len(opened))
