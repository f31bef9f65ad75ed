"""What a session says to its client, queued and bounded: a client that stops reading overflows
its own queue and is dropped; the server and the other sessions are not held up."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any, Awaitable, Callable

log = logging.getLogger(__name__)


class Outbox:
    """Bounded queue of frames to send (by count and bytes); ``pump`` writes them to the socket in order."""

    def __init__(self, limit: int = 4096, max_bytes: int = 8 * 1024**2):
        self._queue: asyncio.Queue[tuple[str | bytes, Callable[[], None] | None] | None] = asyncio.Queue(limit)
        self.overflowed = asyncio.Event()
        self.max_bytes = max_bytes
        self.queued_bytes = 0

    def event(self, event: dict[str, Any], on_sent: Callable[[], None] | None = None) -> None:
        self._put(json.dumps(event, ensure_ascii=False), on_sent)

    def audio(self, pcm16: bytes, on_sent: Callable[[], None] | None = None) -> None:
        self._put(pcm16, on_sent)

    def _put(self, frame: str | bytes, on_sent: Callable[[], None] | None) -> None:
        if self.overflowed.is_set():
            return
        try:
            if self.queued_bytes + len(frame) > self.max_bytes:
                raise asyncio.QueueFull
            self._queue.put_nowait((frame, on_sent))
            self.queued_bytes += len(frame)
        except asyncio.QueueFull:
            log.warning("client is not reading: send queue full, dropping the session")
            self.overflowed.set()

    def close(self) -> None:
        with contextlib.suppress(asyncio.QueueFull):
            self._queue.put_nowait(None)

    async def pump(self, send_text: Callable[[str], Awaitable[None]], send_bytes: Callable[[bytes], Awaitable[None]]) -> None:
        while (item := await self._queue.get()) is not None:
            frame, on_sent = item
            self.queued_bytes -= len(frame)
            if isinstance(frame, str):
                await send_text(frame)
            else:
                await send_bytes(frame)
            if on_sent is not None:
                on_sent()
