"""A simulated client of the WebSocket protocol: streams speech in real time, types, records what comes back.

Used by the voice and load benchmarks and by the protocol tests, so all of them measure the same way:
end of speech is the moment the last voiced sample left the client, first audio the moment the first
reply audio byte arrived.
"""

from __future__ import annotations

import asyncio
import base64
import json
import time
import urllib.request
from dataclasses import dataclass, field
from typing import Any, Callable
from urllib.parse import parse_qsl, urlencode, urlsplit

import numpy as np
import websockets

from app.audio import StreamResampler, float32_to_pcm16, pcm16_to_float32
from app.bench.speech_samples import speech_bounds
from app.web.realtime.wire import INPUT_RATE

FRAME_MS = 20


@dataclass
class ServerProbe:
    """Reads the server's own figures over HTTP (same host as the WebSocket; its token, if any)."""

    base: str
    query: str

    @classmethod
    def for_ws_url(cls, ws_url: str) -> "ServerProbe":
        parts = urlsplit(ws_url)
        scheme = "https" if parts.scheme == "wss" else "http"
        token = [(k, v) for k, v in parse_qsl(parts.query) if k == "token"]
        return cls(f"{scheme}://{parts.netloc}", f"?{urlencode(token)}" if token else "")

    def get(self, path: str) -> bytes:
        with urllib.request.urlopen(self.base + path + self.query, timeout=30) as response:
            return response.read()

    def post(self, path: str) -> bytes:
        request = urllib.request.Request(self.base + path + self.query, data=b"", method="POST")
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.read()

    def session_credential(self) -> dict[str, str]:
        """A server-issued session (``id``, ``credential``, ``header``): the handshake header that resumes it."""
        return json.loads(self.post("/api/sessions"))

    def models(self) -> dict[str, str]:
        """``llm_model``, ``asr_model``, ``tts_model``: what the measured server runs (its GET /v1/models)."""
        listing = json.loads(self.get("/v1/models"))["data"]
        return {f"{model['stage']}_model": model["id"] for model in listing if "stage" in model}


@dataclass
class ReplyRecord:
    """What one response brought: its events' text, audio and timing."""

    response_id: str
    created_at: float
    text: str = ""
    audio: bytearray = field(default_factory=bytearray)
    first_audio_at: float | None = None
    first_text_at: float | None = None
    done: dict[str, Any] | None = None
    done_at: float | None = None

    @property
    def status(self) -> str | None:
        return self.done["status"] if self.done else None

    def audio_float(self) -> np.ndarray:
        return pcm16_to_float32(bytes(self.audio))


class RealtimeClient:
    """One connection. ``events`` holds every JSON event received (with ``_t``, its arrival time).
    ``headers`` go with the handshake (the session credential that resumes a conversation)."""

    def __init__(self, url: str, headers: dict[str, str] | None = None):
        self.url = url
        self.headers = headers or {}
        self.events: list[dict[str, Any]] = []
        self.replies: dict[str, ReplyRecord] = {}
        self.current: ReplyRecord | None = None
        self.session: dict[str, Any] = {}
        self.close_code: int | None = None
        self.close_reason = ""
        self._ws: Any = None
        self._reader: asyncio.Task | None = None
        self._changed = asyncio.Condition()

    async def __aenter__(self) -> "RealtimeClient":
        await self.connect()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def connect(self) -> None:
        self._ws = await websockets.connect(self.url, additional_headers=self.headers, max_size=None, ping_interval=None)
        self._reader = asyncio.create_task(self._read())
        created = await self.wait_for("session.created", timeout=30)
        self.session = created["session"]

    async def close(self) -> None:
        if self._ws is not None:
            await self._ws.close()
        if self._reader is not None:
            await asyncio.gather(self._reader, return_exceptions=True)

    # --- sending ---

    async def send(self, event: dict[str, Any]) -> None:
        await self._ws.send(json.dumps(event))

    async def send_raw(self, frame: str | bytes) -> None:
        await self._ws.send(frame)

    async def say_text(self, text: str) -> None:
        """A typed user message, then a reply request (what the chat page does)."""
        await self.send({"type": "conversation.item.create",
                         "item": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}})
        await self.send({"type": "response.create"})

    async def stream_audio(
        self,
        audio: np.ndarray,
        *,
        realtime: bool = True,
        trailing_silence_s: float = 1.0,
        base64_rate: int | None = None,
        on_frame: Callable[[float], None] | None = None,
    ) -> float:
        """Send 16 kHz float audio as 20 ms frames (binary, or base64 ``input_audio_buffer.append`` at
        ``base64_rate``), paced in real time, then silence. Returns the perf_counter time at which the
        last voiced sample was sent (end of speech)."""
        end_sample = int(speech_bounds(audio)[1] * INPUT_RATE)
        padded = np.concatenate([audio, np.zeros(int(trailing_silence_s * INPUT_RATE), np.float32)])
        frame = INPUT_RATE * FRAME_MS // 1000
        resampler = StreamResampler(INPUT_RATE, base64_rate) if base64_rate else None
        started = time.perf_counter()
        speech_end_at = started
        for index, offset in enumerate(range(0, len(padded), frame)):
            chunk = padded[offset : offset + frame]
            if resampler is None:
                await self._ws.send(float32_to_pcm16(chunk))
            else:
                pcm = float32_to_pcm16(resampler.feed(chunk))
                await self.send({"type": "input_audio_buffer.append", "audio": base64.b64encode(pcm).decode()})
            now = time.perf_counter()
            if offset < end_sample <= offset + frame:
                speech_end_at = now
            if on_frame is not None:
                on_frame(offset / INPUT_RATE)
            if realtime:
                delay = started + (index + 1) * FRAME_MS / 1000 - time.perf_counter()
                if delay > 0:
                    await asyncio.sleep(delay)
        return speech_end_at

    # --- receiving ---

    async def _read(self) -> None:
        try:
            async for message in self._ws:
                now = time.perf_counter()
                if isinstance(message, bytes):
                    self._audio(message, now)
                else:
                    event = json.loads(message)
                    event["_t"] = now
                    self._event(event, now)
                async with self._changed:
                    self._changed.notify_all()
        except websockets.ConnectionClosed:
            pass
        finally:
            if self._ws is not None and self._ws.close_code is not None:
                self.close_code = self._ws.close_code
                self.close_reason = self._ws.close_reason or ""
            async with self._changed:
                self._changed.notify_all()

    def _audio(self, pcm: bytes, now: float) -> None:
        if self.current is None:
            return
        if self.current.first_audio_at is None:
            self.current.first_audio_at = now
        self.current.audio.extend(pcm)

    def _event(self, event: dict[str, Any], now: float) -> None:
        self.events.append(event)
        kind = event["type"]
        if kind == "response.created":
            record = ReplyRecord(event["response"]["id"], now)
            self.replies[record.response_id] = record
            if event["response"].get("conversation_id") is not None:  # out-of-band responses send no binary audio
                self.current = record
        elif kind == "response.output_audio.delta" and self.current is not None:
            self._audio(base64.b64decode(event["delta"]), now)
        elif kind in ("response.output_text.delta", "response.output_audio_transcript.delta"):
            record = self.replies.get(event.get("response_id", ""), self.current)
            if record is not None:
                record.first_text_at = record.first_text_at or now
                record.text += event["delta"]
        elif kind == "response.done":
            record = self.replies.get(event["response"]["id"])
            if record is not None:
                record.done, record.done_at = event["response"], now
            if record is self.current:
                self.current = None

    async def wait_for(
        self,
        kind: str | tuple[str, ...],
        predicate: Callable[[dict[str, Any]], bool] | None = None,
        *,
        timeout: float = 60.0,
        after: int = 0,
    ) -> dict[str, Any]:
        """The first event of ``kind`` (or of any of several kinds) from index ``after`` that satisfies ``predicate``."""
        kinds = (kind,) if isinstance(kind, str) else kind
        deadline = time.perf_counter() + timeout
        async with self._changed:
            while True:
                for event in self.events[after:]:
                    if event["type"] in kinds and (predicate is None or predicate(event)):
                        return event
                if self._reader is not None and self._reader.done():
                    raise ConnectionError(f"connection closed ({self.close_code}) before {kind}")
                remaining = deadline - time.perf_counter()
                if remaining <= 0:
                    seen = [e["type"] for e in self.events[after:]][-20:]
                    raise TimeoutError(f"no {kind} within {timeout} s; last events: {seen}")
                try:
                    await asyncio.wait_for(self._changed.wait(), remaining)
                except asyncio.TimeoutError:
                    pass

    def audio_s(self, reply: ReplyRecord) -> float:
        """Seconds of ``reply``'s audio received so far, at this session's output rate."""
        return len(reply.audio) / 2 / self.session["audio"]["output"]["format"]["rate"]

    async def hear_out(self, reply: ReplyRecord, at_most_s: float, pause_s: float = 0.3) -> None:
        """Wait as a user who listens: the reply's audio played from its first frame (``at_most_s`` of it at most),
        then a pause before speaking again."""
        assert reply.first_audio_at is not None
        heard_until = reply.first_audio_at + min(self.audio_s(reply), at_most_s)
        await asyncio.sleep(max(0.0, heard_until - time.perf_counter()) + pause_s)

    async def next_reply(self, *, after: int = 0, timeout: float = 120.0) -> ReplyRecord:
        """The reply whose ``response.done`` is the first one at or after event index ``after``."""
        done = await self.wait_for("response.done", timeout=timeout, after=after)
        return self.replies[done["response"]["id"]]

    async def closed(self, timeout: float = 10.0) -> int | None:
        if self._reader is not None:
            await asyncio.wait_for(asyncio.shield(self._reader), timeout)
        return self.close_code
