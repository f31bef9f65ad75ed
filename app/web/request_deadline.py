"""A deadline on each HTTP request's arrival, so half-sent requests cannot hold connections forever.

uvicorn times out idle keep-alive connections only after a first response, and any byte resets that
timer: a client that opens connections and sends a header byte now and then (slowloris) would keep
each one, and its file descriptor, for good. Here every request must arrive whole (request line,
headers and body) within ``request_timeout_s`` of the connection or of its own first byte; a
WebSocket upgrade stops the clock.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

_TIMEOUT_BODY = b"the request did not arrive in time\n"
_TIMEOUT_RESPONSE = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\nconnection: close\r\n"
    b"content-length: " + str(len(_TIMEOUT_BODY)).encode() + b"\r\n\r\n" + _TIMEOUT_BODY
)


class DeadlineHttpProtocol(HttpToolsProtocol):
    """uvicorn's HTTP protocol (httptools, uvicorn[standard]'s choice) with the request deadline."""

    request_timeout_s = 10.0
    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: Any) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self._deadline is None:  # a later request on a kept-alive connection
            self._arm()

    def on_message_complete(self) -> None:
        self._disarm()
        super().on_message_complete()

    def handle_websocket_upgrade(self) -> None:
        self._disarm()
        super().handle_websocket_upgrade()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        if self.request_timeout_s > 0:
            self._deadline = self.loop.call_later(self.request_timeout_s, self._expire)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expire(self) -> None:
        self._deadline = None
        if self.transport.is_closing():
            return
        if self.cycle is None or self.cycle.response_complete:  # no app is reading this request yet
            self.transport.write(_TIMEOUT_RESPONSE)
        self.transport.close()  # an app reading the body gets http.disconnect


def http_protocol(request_timeout_s: float) -> type[DeadlineHttpProtocol]:
    """The protocol class for ``uvicorn.Config(http=...)`` with this deadline (0 = none)."""
    return type("DeadlineHttpProtocol", (DeadlineHttpProtocol,), {"request_timeout_s": request_timeout_s})
