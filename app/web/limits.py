"""Limits and access rules of the WebSocket protocol: who may connect and how fast a session may send.

A public demo is used by strangers: every session gets a message rate, an audio budget (a client
may not stream faster than real time for long) and an idle timeout; the WebSocket checks the
browser's Origin (cross-site pages must not drive a visitor's session) and, when configured, an
access token. Everything here is cheap and synchronous: it runs before a frame is parsed.
"""

from __future__ import annotations

import ipaddress
import secrets
import socket
import time
from collections import deque
from dataclasses import dataclass
from typing import Callable, Mapping
from urllib.parse import urlsplit

from app.config import Settings

TOKEN_PARAM = "token"
TOKEN_COOKIE = "voicechat_token"
AUDIO_WINDOW_S = 60.0
ERROR_INTERVAL_S = 1.0  # the same limit error is sent at most this often, so a flood gets no flood back


class TokenBucket:
    """``rate`` events per second on average, bursts of up to ``burst``."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic):
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._tokens = burst
        self._at = clock()

    def allow(self, cost: float = 1.0) -> bool:
        now = self._clock()
        self._tokens = min(self.burst, self._tokens + (now - self._at) * self.rate)
        self._at = now
        if self._tokens < cost:
            return False
        self._tokens -= cost
        return True


class AudioBudget:
    """At most ``seconds_per_min`` seconds of audio in any 60 s window (sliding)."""

    def __init__(self, seconds_per_min: float, clock: Callable[[], float] = time.monotonic):
        self.limit_s = seconds_per_min
        self._clock = clock
        self._window: deque[tuple[float, float]] = deque()  # (arrival, seconds)
        self._total_s = 0.0

    def allow(self, seconds: float) -> bool:
        now = self._clock()
        while self._window and self._window[0][0] <= now - AUDIO_WINDOW_S:
            self._total_s -= self._window.popleft()[1]
        if self._total_s + seconds > self.limit_s:
            return False
        self._window.append((now, seconds))
        self._total_s += seconds
        return True


class SessionLimits:
    """One session's message rate, audio budget, idle clock and limit-error throttle."""

    def __init__(self, settings: Settings, clock: Callable[[], float] = time.monotonic):
        self._clock = clock
        self.messages = TokenBucket(settings.max_messages_per_s, max(1.0, settings.max_messages_per_s), clock)
        self.audio = AudioBudget(settings.max_audio_s_per_min, clock)
        self.idle_timeout_s = settings.idle_timeout_s
        self.last_message = clock()
        self._last_error: dict[str, float] = {}

    def admit_message(self) -> bool:
        """A frame arrived: False when it is over the rate (the caller drops it)."""
        self.last_message = self._clock()
        return self.messages.allow()

    def idle_left_s(self) -> float | None:
        """Seconds until the session counts as idle; None when there is no idle timeout."""
        if self.idle_timeout_s <= 0:
            return None
        return max(0.0, self.last_message + self.idle_timeout_s - self._clock())

    def should_report(self, code: str) -> bool:
        """Whether to send the limit error ``code`` now (once per ``ERROR_INTERVAL_S``)."""
        now = self._clock()
        if now - self._last_error.get(code, -ERROR_INTERVAL_S) < ERROR_INTERVAL_S:
            return False
        self._last_error[code] = now
        return True


@dataclass(frozen=True)
class Denial:
    """Why a connection is refused: the ``error`` code sent before closing with 1008."""

    code: str
    message: str


LOCAL_HOST_NAMES = ("localhost", "127.0.0.1", "::1")


def machine_host_names() -> set[str]:
    """This machine's name, its canonical name and the addresses they resolve to (no network lookup
    beyond the resolver's own files when they are there)."""
    name = socket.gethostname()
    names = {name}
    try:
        for *_, canonical, address in socket.getaddrinfo(name, None, flags=socket.AI_CANONNAME):
            names.update((canonical, str(address[0])))
    except OSError:
        pass
    return {n for n in names if n}


def host_name(header: str) -> str:
    """The name in a ``Host`` header: ``Example.org.:8000`` -> ``example.org``, ``[::1]:8000`` -> ``::1``."""
    value = header.strip().lower()
    if value.startswith("["):
        value = value[1 : value.find("]")] if "]" in value else value
    elif value.count(":") == 1:
        value = value.split(":", 1)[0]
    return value.rstrip(".")


def limited_client(address: str | None) -> bool:
    """Whether ``max_sessions_per_client`` applies: not to loopback clients (this machine: benchmarks,
    tools, a local proxy that forwards no client address)."""
    if not address:
        return False
    try:
        return not ipaddress.ip_address(address).is_loopback
    except ValueError:  # a name (a unix socket path, a proxy's label): limited like an address
        return True


class AccessPolicy:
    """Host and origin allow-lists and the optional access token, for the WebSocket and the pages."""

    def __init__(self, settings: Settings):
        self.token = settings.access_token
        origins = {o.strip().rstrip("/").lower() for o in settings.allowed_origins.split(",") if o.strip()}
        self.any_origin = "*" in origins
        self.origins = frozenset(origins - {"*"})
        hosts = {host_name(h) for h in settings.allowed_hosts.split(",") if h.strip()}
        self.any_host = "*" in hosts
        self.hosts = frozenset(
            hosts | {host_name(settings.host), *LOCAL_HOST_NAMES, *(host_name(n) for n in machine_host_names())}
        )

    def host_allowed(self, host: str | None) -> bool:
        """The request names this server: the bind address, a localhost name, the machine's own names or
        ``allowed_hosts``. A page on another name that resolves here (DNS rebinding) sends its own name.
        No Host header: not a browser (HTTP/1.0 tools), so no rebinding."""
        if host is None or self.any_host:
            return True
        name = host_name(host)
        return name in self.hosts or name.endswith(".localhost")

    def token_matches(self, candidate: str) -> bool:
        """``candidate`` is the access token (constant-time comparison)."""
        return bool(self.token) and secrets.compare_digest(candidate.encode(), self.token.encode())

    def origin_allowed(self, origin: str | None, *hosts: str | None) -> bool:
        """Same-origin (the ``Host`` the handshake went to, or the ``X-Forwarded-Host`` of a proxy:
        a browser page cannot set either) or listed. No Origin header: not a browser (browsers always
        send one on a WebSocket handshake), so no page can be riding on a visitor's connection."""
        if origin is None or self.any_origin:
            return True
        origin = origin.rstrip("/").lower()
        if origin in self.origins:
            return True
        netloc = urlsplit(origin).netloc
        return bool(netloc) and any(host and netloc == host.strip().lower() for host in hosts)

    def token_ok(self, query: Mapping[str, str], headers: Mapping[str, str], cookies: Mapping[str, str]) -> bool:
        """No token configured, or the request carries it (query, ``Authorization: Bearer``, or cookie)."""
        if not self.token:
            return True
        bearer = headers.get("authorization", "")
        candidates = (
            query.get(TOKEN_PARAM, ""),
            bearer[7:].strip() if bearer[:7].lower() == "bearer " else "",
            cookies.get(TOKEN_COOKIE, ""),
        )
        return any(c and self.token_matches(c) for c in candidates)

    def check_websocket(
        self, query: Mapping[str, str], headers: Mapping[str, str], cookies: Mapping[str, str]
    ) -> Denial | None:
        if not self.origin_allowed(headers.get("origin"), headers.get("host"), headers.get("x-forwarded-host")):
            return Denial("origin_not_allowed", "this page's origin may not connect; see allowed_origins")
        if not self.token_ok(query, headers, cookies):
            return Denial("unauthorized", "an access token is required (?token=... or Authorization: Bearer)")
        return None
