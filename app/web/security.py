"""HTTP hardening: security headers on every response, the access token on the pages, and logs
that never carry a token or a whole session id.

The pages load only same-origin scripts and styles (no inline script), so the policy can forbid
everything else; ``Referrer-Policy: no-referrer`` keeps a ``?token=`` out of other sites' logs.
"""

from __future__ import annotations

import logging
import re
from http.cookies import SimpleCookie
from typing import Any, Awaitable, Callable, Mapping
from urllib.parse import parse_qsl

from app.web.limits import TOKEN_COOKIE, TOKEN_PARAM, AccessPolicy

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; connect-src 'self'; img-src 'self' data:; object-src 'none'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = {
    "content-security-policy": CONTENT_SECURITY_POLICY,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
    "permissions-policy": "microphone=(self), camera=(), geolocation=()",
    "cross-origin-opener-policy": "same-origin",
}
PROTECTED_PATHS = ("/", "/dashboard", "/api/dashboard")  # the rest (health, metrics, assets) holds no conversation
TOKEN_COOKIE_MAX_AGE_S = 30 * 86400

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


class SecurityMiddleware:
    """ASGI middleware: adds SECURITY_HEADERS to HTTP responses and asks for the access token on
    PROTECTED_PATHS (a valid ``?token=`` is remembered in an HttpOnly cookie, which the page's
    same-origin WebSocket then carries: the page needs no change)."""

    def __init__(self, app: Any, policy: AccessPolicy):
        self.app = app
        self.policy = policy

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        query = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1")))
        cookies = {k: m.value for k, m in SimpleCookie(headers.get("cookie", "")).items()}
        extra: list[tuple[bytes, bytes]] = [(k.encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]
        if self.policy.token and scope["path"] in PROTECTED_PATHS:
            if not self.policy.token_ok(query, headers, cookies):
                await self._unauthorized(send, extra)
                return
            if query.get(TOKEN_PARAM) and cookies.get(TOKEN_COOKIE) != query[TOKEN_PARAM]:
                cookie = f"{TOKEN_COOKIE}={query[TOKEN_PARAM]}; Max-Age={TOKEN_COOKIE_MAX_AGE_S}; Path=/; HttpOnly; SameSite=Strict"
                extra.append((b"set-cookie", cookie.encode("latin-1")))

        async def send_with_headers(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, send_with_headers)

    @staticmethod
    async def _unauthorized(send: Send, extra: list[tuple[bytes, bytes]]) -> None:
        body = b"This demo needs an access token: open the link you were given (it ends in ?token=...).\n"
        headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(body)).encode()), *extra]
        await send({"type": "http.response.start", "status": 401, "headers": headers})
        await send({"type": "http.response.body", "body": body})


_SECRET_PARAMS = re.compile(r"((?:token|session)=)([^&\s\"']+)", re.IGNORECASE)


def redact(text: str) -> str:
    """Tokens become ``***``; session ids keep their first 8 characters (enough to follow a log)."""

    def hide(match: re.Match[str]) -> str:
        name, value = match.group(1), match.group(2)
        return name + ("***" if name.lower().startswith("token") else value[:8] + "...")

    return _SECRET_PARAMS.sub(hide, text)


def _redacted_arg(arg: object) -> object:
    """The argument itself when it holds no secret (numbers keep their ``%d``), else its redacted text."""
    text = str(arg)
    cleaned = redact(text)
    return arg if cleaned == text else cleaned


class RedactingFilter(logging.Filter):
    """Redacts a record's format string and each of its arguments (uvicorn logs request paths with their
    query). The arguments keep their number and order: uvicorn's access formatter unpacks them."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_redacted_arg(arg) for arg in record.args)
        elif isinstance(record.args, Mapping):
            record.args = {key: _redacted_arg(arg) for key, arg in record.args.items()}
        return True


def install_log_redaction() -> None:
    """Attach the filter to the loggers that print request lines."""
    for name in ("uvicorn.access", "uvicorn.error"):
        logging.getLogger(name).addFilter(RedactingFilter())
