"""The WebSocket endpoint of the realtime protocol (``/ws`` and ``/v1/realtime``): admission (access, capacity,
sessions per address), then one session's read loop: frames in (size and rate limits, idle timeout), the
outbox pumped out, and everything closed when either side goes."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Callable

from fastapi import WebSocket
from starlette.websockets import WebSocketDisconnect, WebSocketState

from app.config import Settings
from app.web.limits import AccessPolicy, limited_client
from app.web.outbox import Outbox
from app.web.ownership import SessionKeys
from app.web.realtime import server_events as ev
from app.web.realtime.parts import SharedParts
from app.web.realtime.session import Session
from app.web.realtime.wire import new_id
from app.web.telemetry import Telemetry

log = logging.getLogger(__name__)

MAX_FRAME_BYTES = 21 * 1024 * 1024  # a 15 MiB append in base64; also uvicorn's ws_max_size: bigger frames close with 1009
KEY_SUBPROTOCOL = "openai-insecure-api-key."  # browsers cannot set headers: the key comes as a subprotocol
CLOSE_TRY_AGAIN_LATER = 1013
CLOSE_TOO_BIG = 1009
CLOSE_POLICY = 1008
CLOSE_GOING_AWAY = 1001


class SessionRegistry:
    """The live sessions (capped by ``max_sessions``) and their sockets, for the dashboard and shutdown."""

    def __init__(self, max_sessions: int):
        self.max_sessions = max_sessions
        self.sessions: dict[str, tuple[Session, WebSocket]] = {}

    def full(self) -> bool:
        return len(self.sessions) >= self.max_sessions

    def resolve_id(self, requested: str | None) -> str:
        """The requested id (one the server issued, its credential checked) if it is not live elsewhere, else a
        fresh one."""
        if requested and requested not in self.sessions:
            return requested
        return new_id("sess")

    def held_by(self, address: str | None) -> int:
        """Live sessions whose client has this address."""
        return sum(1 for _, ws in self.sessions.values() if ws.client and ws.client.host == address)

    def add(self, session: Session, websocket: WebSocket) -> None:
        self.sessions[session.id] = (session, websocket)

    def remove(self, session: Session) -> None:
        if self.sessions.get(session.id, (None,))[0] is session:
            del self.sessions[session.id]


class SocketHandler:
    """Serves one WebSocket at a time per call of ``serve``; shared by every connection of the app."""

    def __init__(self, settings: Settings, access: AccessPolicy, keys: SessionKeys, registry: SessionRegistry,
                 telemetry: Telemetry, parts: Callable[[], SharedParts]):  # fmt: skip
        self.settings = settings
        self.access = access
        self.keys = keys
        self.registry = registry
        self.telemetry = telemetry
        self.parts = parts  # built by the app's lifespan, after the handler

    async def serve(self, websocket: WebSocket, default_binary: bool) -> None:
        if await self._admit(websocket):
            await self._run(websocket, default_binary)

    async def _admit(self, websocket: WebSocket) -> bool:
        """Accept the socket; a client that may not have a session is told why and closed (False)."""
        offered = [name.strip() for name in websocket.headers.get("sec-websocket-protocol", "").split(",") if name.strip()]
        await websocket.accept(subprotocol="realtime" if "realtime" in offered else None)
        headers = dict(websocket.headers)
        key = next((name[len(KEY_SUBPROTOCOL) :] for name in offered if name.startswith(KEY_SUBPROTOCOL)), None)
        if key and "authorization" not in headers:  # checked like any access token (constant time)
            headers["authorization"] = f"Bearer {key}"
        denial = self.access.check_websocket(websocket.query_params, headers, websocket.cookies)
        if denial is not None:
            self.telemetry.errors.labels(code=denial.code).inc()
            await websocket.send_json(ev.error(denial.code, denial.message))
            await websocket.close(CLOSE_POLICY, denial.code)
            return False
        if self.registry.full():
            self.telemetry.errors.labels(code="server_full").inc()
            message = f"the server is full ({self.registry.max_sessions} sessions); please try again in a minute"
            await websocket.send_json(ev.error("server_full", message))
            await websocket.close(CLOSE_TRY_AGAIN_LATER, "server full")
            return False
        client = websocket.client.host if websocket.client else None
        per_client = self.settings.max_sessions_per_client
        if per_client and limited_client(client) and self.registry.held_by(client) >= per_client:
            self.telemetry.errors.labels(code="too_many_sessions").inc()
            message = f"this address already holds {per_client} sessions; close one and try again"
            await websocket.send_json(ev.error("too_many_sessions", message))
            await websocket.close(CLOSE_TRY_AGAIN_LATER, "too many sessions")
            return False
        return True

    async def _run(self, websocket: WebSocket, default_binary: bool) -> None:
        query = websocket.query_params
        session_id = self.registry.resolve_id(self.keys.claimed_id(websocket.headers, websocket.cookies))
        transport = query.get("audio")
        binary = default_binary if transport not in ("binary", "base64") else transport == "binary"
        outbox = Outbox(max_bytes=self.settings.max_send_buffer_bytes)
        session = Session(session_id, self.parts(), outbox, binary_audio=binary)
        self.registry.add(session, websocket)
        self.telemetry.sessions_gauge.set(len(self.registry.sessions))
        pump = asyncio.create_task(outbox.pump(websocket.send_text, websocket.send_bytes), name=f"send-{session_id[:8]}")
        overflow = asyncio.create_task(outbox.overflowed.wait())
        log.info("session %s connected (%d live)", session_id[:8], len(self.registry.sessions))
        close_code, reason = 1000, ""
        try:
            await session.start()
            receive = asyncio.create_task(websocket.receive())
            while True:
                done, _ = await asyncio.wait(
                    {receive, overflow, pump}, timeout=session.limits.idle_left_s(), return_when=asyncio.FIRST_COMPLETED
                )
                if not done:
                    notice = f"no message for {self.settings.idle_timeout_s:g} s; reconnect to go on"
                    outbox.event(ev.error("session_idle", notice))
                    close_code, reason = 1000, "idle"
                    break
                if overflow in done:
                    close_code, reason = CLOSE_POLICY, "client is not reading its messages"
                    break
                if pump in done:
                    break  # the socket failed while sending
                message = receive.result()
                if message["type"] == "websocket.disconnect":
                    close_code = 0
                    break
                data = message.get("text")
                if data is None:
                    data = message.get("bytes") or b""
                if len(data) > MAX_FRAME_BYTES:
                    close_code, reason = CLOSE_TOO_BIG, f"frame over {MAX_FRAME_BYTES} bytes"
                    break
                if not session.limits.admit_message():
                    if session.limits.should_report("rate_limit_exceeded"):
                        self.telemetry.errors.labels(code="rate_limit_exceeded").inc()
                        limit = self.settings.max_messages_per_s
                        outbox.event(ev.error("rate_limit_exceeded", f"over {limit:g} messages/s; messages dropped"))
                elif message.get("text") is not None:
                    await session.on_text(data)
                else:
                    await session.on_audio(data)
                receive = asyncio.create_task(websocket.receive())
            if not receive.done():
                receive.cancel()
        except WebSocketDisconnect:
            close_code = 0
        finally:
            self.registry.remove(session)
            self.telemetry.sessions_gauge.set(len(self.registry.sessions))
            await session.close()
            outbox.close()
            overflow.cancel()
            if close_code:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(pump, timeout=2.0)
                with contextlib.suppress(Exception):
                    if websocket.client_state == WebSocketState.CONNECTED:
                        await websocket.close(close_code, reason)
            pump.cancel()
            log.info("session %s closed (%d live)", session_id[:8], len(self.registry.sessions))
