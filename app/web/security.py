"""HTTP hardening: only this server's host names, security headers on every response, the access
token on the pages (and /metrics), cookies only from values the server made or matched, and logs
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

from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from app.config import Settings
from app.web.limits import TOKEN_COOKIE, TOKEN_PARAM, AccessPolicy
from app.web.request_deadline import http_protocol

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
PROTECTED_PATHS = ("/", "/dashboard", "/api/dashboard", "/api/sessions")  # and /metrics unless metrics_public
TOKEN_COOKIE_MAX_AGE_S = 30 * 86400

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]

log = logging.getLogger(__name__)


class SecurityMiddleware:
    """ASGI middleware: refuses requests for another Host (DNS rebinding), adds SECURITY_HEADERS to HTTP
    responses and asks for the access token on the protected paths (a ``?token=`` that matches is
    remembered in an HttpOnly cookie, which the page's same-origin WebSocket then carries)."""

    def __init__(self, app: Any, policy: AccessPolicy, metrics_public: bool = False):
        self.app = app
        self.policy = policy
        self.protected = PROTECTED_PATHS if metrics_public else (*PROTECTED_PATHS, "/metrics")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        if not self.policy.host_allowed(headers.get("host")):
            await _refuse_host(scope, receive, send, headers["host"])
            return
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return
        query = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1")))
        cookies = {k: m.value for k, m in SimpleCookie(headers.get("cookie", "")).items()}
        extra: list[tuple[bytes, bytes]] = [(k.encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]
        if self.policy.token and scope["path"] in self.protected:
            presented = query.get(TOKEN_PARAM)
            if presented is not None and not self.policy.token_matches(presented):
                await _plain_response(send, 401, b"The access token in this link is not valid.\n", extra)
                return
            if not self.policy.token_ok(query, headers, cookies):
                await _plain_response(send, 401, UNAUTHORIZED, extra)
                return
            if presented and cookies.get(TOKEN_COOKIE) != presented and COOKIE_VALUE.match(self.policy.token):
                extra.append(set_cookie(TOKEN_COOKIE, self.policy.token, TOKEN_COOKIE_MAX_AGE_S, scope))

        async def send_with_headers(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, send_with_headers)


UNAUTHORIZED = b"This demo needs an access token: open the link you were given (it ends in ?token=...).\n"
COOKIE_VALUE = re.compile(r"^[!#-+\--:<-\[\]-~]+$")  # RFC 6265 cookie-octets: no space, quote, comma, ; or \


def is_https(scope: Scope) -> bool:
    """The client reached us over TLS (directly, or through a trusted proxy's X-Forwarded-Proto)."""
    return scope.get("scheme") in ("https", "wss")


def set_cookie(name: str, value: str, max_age_s: int, scope: Scope) -> tuple[bytes, bytes]:
    """A ``Set-Cookie`` header: HttpOnly, SameSite=Strict, Secure when the client came over HTTPS.
    ``value`` must be one the server made or matched, never a client's text as is."""
    secure = "; Secure" if is_https(scope) else ""
    return b"set-cookie", f"{name}={value}; Max-Age={max_age_s}; Path=/; HttpOnly; SameSite=Strict{secure}".encode()


async def _plain_response(send: Send, status: int, body: bytes, extra: list[tuple[bytes, bytes]]) -> None:
    headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(body)).encode()), *extra]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def _refuse_host(scope: Scope, receive: Receive, send: Send, host: str) -> None:
    """400 for HTTP; a WebSocket handshake is refused before it is accepted (HTTP 403)."""
    log.warning("refused a request for host %r (not in allowed_hosts)", host[:100])
    if scope["type"] == "websocket":
        await receive()  # websocket.connect
        await send({"type": "websocket.close", "code": 1008, "reason": "host not allowed"})
        return
    body = b"This server does not answer to that host name; see the allowed_hosts setting.\n"
    extra = [(k.encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]
    await _plain_response(send, 400, body, extra)


def harden(app: Any, settings: Settings, policy: AccessPolicy) -> None:
    """Install the middleware: trusted proxies' X-Forwarded-For/-Proto first (client address and
    scheme as the proxy saw them), then the host, token and header rules."""
    app.add_middleware(SecurityMiddleware, policy=policy, metrics_public=settings.metrics_public)
    app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=settings.trusted_proxies)  # added last: runs first


def uvicorn_options(settings: Settings) -> dict[str, Any]:
    """Options every uvicorn serving the app gets: the request deadline, and proxy headers left to
    :func:`harden` (uvicorn's own would trust 127.0.0.1 whatever ``trusted_proxies`` says)."""
    return {"http": http_protocol(settings.request_timeout_s), "proxy_headers": False}


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
