"""Shared pieces of the reliability tests: parts with fault seams, a raw WebSocket, server polling.

The faulty parts are the real engine, recogniser and TTS worker (same models, same code paths);
each subclass raises only for the sessions or calls a test marks (session ids come from the server,
so a test marks a session once it is connected), so everything else they do is real.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import struct
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, AsyncIterator

from app.asr import SpeechRecognizer, create_recognizer
from app.config import Settings
from app.engine.engine import LocalEngine
from app.tts import create_worker
from app.tts.worker import TTSWorker
from app.web.server import ServerThread, create_app

class FaultyEngine(LocalEngine):
    """The real engine; a step fails whenever it holds a request of a session in ``failing_sessions``."""

    shared_failures = 0  # failed steps that also held other requests

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.failing_sessions: set[str] = set()

    def _run_step(self, batch, inputs) -> None:  # type: ignore[no-untyped-def]
        seqs = batch.decode + [seq for seq, _ in batch.prefill]
        if any(seq.session_id in self.failing_sessions for seq in seqs):
            self.shared_failures += len(seqs) > 1
            raise RuntimeError("injected engine fault")
        super()._run_step(batch, inputs)


class FaultyRecognizer(SpeechRecognizer):
    """The real recogniser; final transcripts of the sessions in ``failing_sessions`` fail."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.failing_sessions: set[str] = set()

    async def transcribe(self, audio, *, final: bool = True, session_id: str | None = None, language: str | None = None):  # type: ignore[no-untyped-def]
        if final and session_id in self.failing_sessions:
            raise RuntimeError("injected ASR fault")
        return await super().transcribe(audio, final=final, session_id=session_id, language=language)


class FaultyTTS(TTSWorker):
    """The real TTS worker; the next ``fail_next`` synthesis calls fail."""

    fail_next = 0

    async def synthesize(self, text: str, **options: Any) -> AsyncIterator[bytes]:
        if self.fail_next:
            self.fail_next -= 1
            raise RuntimeError("injected TTS fault")
        async for pcm in super().synthesize(text, **options):
            yield pcm


def build_faulty_parts(settings, prepared) -> tuple[FaultyEngine, FaultyRecognizer, FaultyTTS]:  # type: ignore[no-untyped-def]
    """Not started: ``await part.start()`` each."""
    engine = FaultyEngine(settings, prepared.llm_dir)
    real = create_recognizer(settings, prepared)
    recognizer = FaultyRecognizer(real.transcriber, batch_window_ms=settings.asr_batch_window_ms,
                                  max_batch=settings.asr_max_batch)
    tts = FaultyTTS(create_worker(settings, prepared).synthesizer)
    return engine, recognizer, tts


@dataclass
class Server:
    """An app a test serves on 127.0.0.1."""

    base_url: str
    ws_url: str
    port: int
    settings: Settings


def serve_parts(settings: Settings, engine: Any, recognizer: Any, tts: Any) -> Iterator[Server]:
    """The app over these started parts, served by uvicorn in a thread until the generator is closed."""
    app = create_app(settings, engine=engine, recognizer=recognizer, tts=tts)
    with ServerThread(app) as base_url:
        port = int(base_url.rsplit(":", 1)[1])
        yield Server(base_url, base_url.replace("http://", "ws://") + "/ws", port, settings)


@contextmanager
def running(*parts: Any) -> Iterator[None]:
    """``await part.start()`` for each part, and ``stop()`` on leaving."""

    async def call(method: str) -> None:
        for part in parts:
            await getattr(part, method)()

    asyncio.run(call("start"))
    try:
        yield
    finally:
        asyncio.run(call("stop"))


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=30) as response:
        return json.loads(response.read())


def wait_for_sessions(base_url: str, count: int = 0, timeout: float = 15.0) -> None:
    """Sessions end when the server has seen their socket close; wait for that."""
    deadline = time.monotonic() + timeout
    while (live := get_json(base_url + "/healthz")["sessions"]) != count:
        if time.monotonic() > deadline:
            raise TimeoutError(f"{live} sessions live, expected {count}")
        time.sleep(0.05)


def engine_idle(engine: LocalEngine) -> bool:
    stats = engine.stats()
    return stats["running"] == 0 and stats["waiting"] == 0 and stats["kv_blocks_used"] == 0


# ---------------------------------------------------------------------- a raw WebSocket client


class RawWebSocket:
    """A WebSocket client at the byte level: it can send what real libraries refuse to (invalid
    UTF-8 in a text frame) and can stop reading altogether (a slow consumer)."""

    def __init__(self, port: int, path: str = "/ws", *, receive_buffer: int | None = None):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if receive_buffer is not None:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        self.sock.settimeout(30)
        self.sock.connect(("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        request = (
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        self.sock.sendall(request.encode())
        self._buffer = b""
        while b"\r\n\r\n" not in self._buffer:
            self._buffer += self.sock.recv(4096)
        head, self._buffer = self._buffer.split(b"\r\n\r\n", 1)
        assert b" 101 " in head.split(b"\r\n")[0], head

    def send_frame(self, opcode: int, payload: bytes) -> None:
        mask = os.urandom(4)
        size = len(payload)
        if size < 126:
            header = struct.pack("!BB", 0x80 | opcode, 0x80 | size)
        elif size < 65536:
            header = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, size)
        else:
            header = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, size)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def _read(self, size: int) -> bytes:
        while len(self._buffer) < size:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("the server closed the TCP connection")
            self._buffer += chunk
        data, self._buffer = self._buffer[:size], self._buffer[size:]
        return data

    def read_frame(self) -> tuple[int, bytes]:
        first, second = self._read(2)
        size = second & 0x7F
        if size == 126:
            (size,) = struct.unpack("!H", self._read(2))
        elif size == 127:
            (size,) = struct.unpack("!Q", self._read(8))
        return first & 0x0F, self._read(size)

    def read_until_close(self) -> tuple[int, str, list[dict[str, Any]]]:
        """The close code and reason, and the JSON events read before the close frame."""
        events = []
        while True:
            opcode, payload = self.read_frame()
            if opcode == 0x1:
                events.append(json.loads(payload))
            elif opcode == 0x8:
                code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005
                return code, payload[2:].decode("utf-8", "replace"), events

    def close(self) -> None:
        self.sock.close()
