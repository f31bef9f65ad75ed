"""HTTP-level hardening on a real uvicorn server on 127.0.0.1: the access log stays whole and redacted,
half-sent requests time out."""

from __future__ import annotations

import io
import logging
import threading
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import uvicorn
from uvicorn.logging import AccessFormatter

from app.web.security import install_log_redaction


async def hello(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """The smallest ASGI app: 200 and a word for every request."""
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
    await send({"type": "http.response.body", "body": b"hello"})


class RecordingHandler(logging.StreamHandler):
    """Formats like uvicorn's access handler and keeps the records it could not format."""

    def __init__(self) -> None:
        super().__init__(io.StringIO())
        self.setFormatter(AccessFormatter('%(client_addr)s - "%(request_line)s" %(status_code)s', use_colors=False))
        self.failed: list[logging.LogRecord] = []

    def handleError(self, record: logging.LogRecord) -> None:
        self.failed.append(record)


def serve(app: Any, **config: Any) -> Iterator[int]:
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, lifespan="off", **config))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        assert thread.is_alive()
        time.sleep(0.02)
    yield server.servers[0].sockets[0].getsockname()[1]
    server.should_exit = True
    thread.join(10)


def test_the_access_log_line_of_a_request_with_secrets_is_kept_and_redacted():
    access_log = RecordingHandler()
    logger = logging.getLogger("uvicorn.access")
    for port in serve(hello, log_level="info", access_log=True):
        logger.addHandler(access_log)  # uvicorn set up its loggers when it was configured
        install_log_redaction()
        url = f"http://127.0.0.1:{port}/?token=s3cret&session=sess_0123456789abcdef"
        with urllib.request.urlopen(url, timeout=10) as response:
            assert response.read() == b"hello"
    logger.removeHandler(access_log)
    for log_filter in list(logger.filters):
        logger.removeFilter(log_filter)
    assert access_log.failed == []
    lines = access_log.stream.getvalue().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].endswith('"GET /?token=***&session=sess_012... HTTP/1.1" 200 OK')
    assert "s3cret" not in lines[0] and "0123456789abcdef" not in lines[0]
