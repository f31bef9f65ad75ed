"""Small in-test fakes of the shared parts (LLM backend, recogniser, speech out) and of the outbox, so
the realtime session's turn logic runs without models; the history is the real SQLite store."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np

from app.config import Settings
from app.engine.api import Delta, Priority, SamplingParams
from app.engine.tool_calls import OPEN_TAG
from app.vad.end_of_turn import EndOfTurnScorer, normalise
from app.web.history import HistoryStore
from app.web.realtime.parts import SharedParts
from app.web.realtime.session import Session
from app.web.reply import PROBE, WORDS_REQUEST
from app.web.telemetry import Telemetry

OUTPUT_RATE = 24000


class FakeTokenizer:
    """What the end-of-turn scorer asks of a tokenizer: one token id per character, ``<|im_end|>`` an id of its own."""

    END = 0x110000
    END_TEXT = "<|im_end|>"
    unk_token_id = None
    eos_token_id = END

    def convert_tokens_to_ids(self, token: str) -> int | None:
        return self.END if token == self.END_TEXT else None

    def encode(self, text: str, add_special_tokens: bool = False) -> list[int]:
        return [ord(c) for c in text]


class FakeEngine:
    """Streams a scripted reply word by word; ``gate`` (when set) holds every token until opened. A request for
    ``token_probs`` (an end-of-turn score) gets the probability ``end_scores`` scripts for the prompt's last
    user words (normalised) on the end token: a prefill-only one (an error when none is scripted) once
    ``score_gate`` (when set) opens; a reply ("user_words_end") on its first token's delta, where ``replies_probe``."""

    supports_tools = True
    floors_calls = True
    tokenizer = FakeTokenizer()  # a reply's question of its call's tool name reads ids from it

    def __init__(self, reply: str = "Paris is the capital of France."):
        self.reply = reply
        self.reply_without_tools: str | None = None  # for a request with no tools, where set
        # The call openings' share at a reply's first token; None: the script's own, 1 for a call, 0 for words.
        self.call_share: float | None = None
        self.gate: asyncio.Event | None = None
        self.requests: list[dict[str, Any]] = []
        self.words_requests: list[dict[str, Any]] = []  # a reply's request without tools, started beside its own
        self.probes: list[dict[str, Any]] = []  # a reply's questions of its call's name and numbers
        self.cancelled: list[str] = []
        self.end_scores: dict[str, float] = {}
        self.score_gate: asyncio.Event | None = None
        self.replies_probe = True

    async def start(self) -> None: ...

    async def stop(self) -> None: ...

    async def generate(
        self, *, messages: list[dict] | None = None, prompt_token_ids: list[int] | None = None, params: SamplingParams,
        priority: Priority, session_id: str | None = None, request_id: str | None = None, tools: list[dict] | None = None,
    ) -> AsyncIterator[Delta]:  # fmt: skip
        request = {"messages": messages, "priority": priority, "id": request_id, "tools": tools, "params": params}
        if PROBE.format("", "") in (request_id or ""):
            self.probes.append(request)
        else:
            beside = (request_id or "").endswith(WORDS_REQUEST.format(""))
            (self.words_requests if beside else self.requests).append(request)
        if params.token_probs and params.token_probs_at == "next":
            if self.score_gate is not None:
                await self.score_gate.wait()
            words = messages[-1]["content"] if messages and messages[-1].get("prefix") else None
            probs = self._end_probs(params, words)
            yield Delta(request_id or "", [0], "", True, "length" if probs else "error", token_probs=probs,
                        error=None if probs else f"no score scripted for {words!r}")
            return
        probed = None
        if params.token_probs and self.replies_probe and messages and messages[-1]["role"] == "user":
            probed = self._end_probs(params, normalise(messages[-1]["content"]))
        reply = self.reply if tools or self.reply_without_tools is None else self.reply_without_tools
        below = False
        if tools and params.call_floor > 0:
            opens_call = reply.startswith(OPEN_TAG)
            share = float(opens_call) if self.call_share is None else self.call_share
            below = share < params.call_floor
            # The engine's draw at the first token: at or above the floor a call's opening, below it words.
            assert opens_call != below, f"a reply that {'opens a call' if opens_call else 'is words'} at share {share}"
        words = reply.split(" ")
        for index, word in enumerate(words):
            if self.gate is not None:
                await self.gate.wait()
            await asyncio.sleep(0.001)
            last = index == len(words) - 1
            yield Delta(request_id or "", [index], ("" if index == 0 else " ") + word, last, "stop" if last else None,
                        token_probs=probed if index == 0 else None,
                        below_call_floor=index == 0 and below)

    def _end_probs(self, params: SamplingParams, words: str | None) -> dict[int, float] | None:
        score = self.end_scores.get(words)
        return None if score is None else {token: score if i == 0 else 0.0 for i, token in enumerate(params.token_probs)}

    def cancel(self, request_id: str) -> None:
        self.cancelled.append(request_id)

    def stats(self) -> dict:
        return {}


@dataclass
class FakeTranscript:
    text: str
    language: str = "en"
    duration_s: float = 1.0
    asr_s: float = 0.01


class FakeRecognizer:
    """Final transcripts from ``finals`` in order; partials from ``partials``; ``gate`` holds finals."""

    def __init__(self, finals: list[str] | None = None, partials: list[str] | None = None):
        self.finals = list(finals or [])
        self.partials = list(partials or [])
        self.gate: asyncio.Event | None = None
        self.calls = 0
        self.languages = frozenset({"en"})

    async def transcribe(self, audio: np.ndarray, *, final: bool = True, session_id: str | None = None,
                         language: str | None = None) -> FakeTranscript | None:
        if not final:
            return FakeTranscript(self.partials.pop(0)) if self.partials else None
        self.calls += 1
        if self.gate is not None:
            await self.gate.wait()
        return FakeTranscript(self.finals.pop(0) if self.finals else "", duration_s=len(audio) / 16000)

    def stats(self) -> dict:
        return {"asr_requests": self.calls}


class FakeSpeech:
    """100 ms of PCM16 per word of a clause at speed 1; records cancels, the speeds asked for and the clauses."""

    changes_speed = True

    def __init__(self) -> None:
        self.cancelled: list[str] = []
        self.speeds: list[float] = []
        self.texts: list[str] = []

    async def synthesize(
        self, text: str, *, reply_id: str, first: bool, out_rate: int, speed: float = 1.0
    ) -> AsyncIterator[bytes]:
        self.speeds.append(speed)
        self.texts.append(text)
        for _ in text.split():
            await asyncio.sleep(0.001)
            yield b"\x01\x00" * round(out_rate / 10 / speed)

    def cancel(self, reply_id: str) -> None:
        self.cancelled.append(reply_id)

    def stats(self) -> dict:
        return {"tts_cancelled": len(self.cancelled)}


@dataclass
class RecordingOutbox:
    """Keeps every event (as the JSON a client would get) and counts audio; frames count as sent at once."""

    events: list[dict[str, Any]] = field(default_factory=list)
    audio_bytes: int = 0

    def event(self, event: dict[str, Any], on_sent: Callable[[], None] | None = None) -> None:
        self.events.append(json.loads(json.dumps(event)))
        if on_sent is not None:
            on_sent()

    def audio(self, pcm16: bytes, on_sent: Callable[[], None] | None = None) -> None:
        self.audio_bytes += len(pcm16)
        if on_sent is not None:
            on_sent()

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [e for e in self.events if e["type"] == kind]

    def types(self) -> list[str]:
        return [e["type"] for e in self.events]

    async def wait_for(self, kind: str, count: int = 1, timeout: float = 5.0) -> dict[str, Any]:
        for _ in range(int(timeout / 0.005)):
            if len(self.of(kind)) >= count:
                return self.of(kind)[count - 1]
            await asyncio.sleep(0.005)
        raise TimeoutError(f"no {kind} (#{count}) in {self.types()}")


@dataclass
class Rig:
    session: Session
    outbox: RecordingOutbox
    engine: FakeEngine
    recognizer: FakeRecognizer
    speech: FakeSpeech
    history: HistoryStore

    async def send(self, event: dict[str, Any]) -> None:
        await self.session.on_text(json.dumps(event))

    async def close(self) -> None:
        await self.session.close()
        self.history.close()


async def make_rig(tmp_path: Path, *, binary_audio: bool = True, session_id: str = "sess_test0001", **settings: Any) -> Rig:
    config = Settings(data_dir=tmp_path, llm_model="smollm2-135m", speculative_asr=True, output_sample_rate=OUTPUT_RATE,
                      **settings)
    engine, recognizer, speech = FakeEngine(), FakeRecognizer(), FakeSpeech()
    history = HistoryStore(tmp_path / "history.sqlite3")
    outbox = RecordingOutbox()
    parts = SharedParts(config, engine, recognizer, speech, history, Telemetry(), EndOfTurnScorer(engine, FakeTokenizer()))
    session = Session(session_id, parts, outbox, binary_audio=binary_audio)  # type: ignore[arg-type]
    await session.start()
    return Rig(session, outbox, engine, recognizer, speech, history)
