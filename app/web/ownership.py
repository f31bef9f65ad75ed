"""Session ids come from the server only, and resuming one takes the credential issued with it.

A conversation is resumed by its session id, so an id alone must not be enough: ids are not secret
(logs and the dashboard show their start), and an id a client could choose would let a link
``/?session=known-id`` plant a conversation that its sender reads later. The server issues every id
with a credential ``<id>.<proof>``, the proof an HMAC of the id under a key kept in the data
directory (credentials survive a restart, and no table of them is needed). Browsers keep the
credential in an HttpOnly cookie set by the page; API clients get one from ``POST /api/sessions`` and
send it in the ``X-Voicechat-Session`` header. It never travels in a URL. A connection without a
valid credential gets a fresh session.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
from pathlib import Path
from typing import Any, Mapping

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from app.web.realtime.wire import new_id
from app.web.security import set_cookie

SESSION_COOKIE = "voicechat_session"
SESSION_HEADER = "x-voicechat-session"
SESSION_COOKIE_MAX_AGE_S = 30 * 86400
KEY_FILE = "session_key"
_MAX_CREDENTIAL_CHARS = 200


def _load_or_create_key(path: Path) -> bytes:
    """32 random bytes, made once (owner-only file); a second process finds the first one's key."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        fresh = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        descriptor = os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "wb") as file:
            file.write(secrets.token_bytes(32))
        try:
            os.link(fresh, path)  # atomic: never a half-written key, and the first writer wins
        except FileExistsError:
            pass
        finally:
            fresh.unlink()
    key = path.read_bytes()
    if len(key) < 32:
        raise RuntimeError(f"{path} holds no valid session key; delete it to make a new one (open sessions end)")
    return key


class SessionKeys:
    """Issues session credentials and checks them (constant-time comparison)."""

    def __init__(self, data_dir: Path):
        self._key = _load_or_create_key(Path(data_dir) / KEY_FILE)

    def credential(self, session_id: str) -> str:
        digest = hmac.new(self._key, session_id.encode(), hashlib.sha256).digest()
        return f"{session_id}.{base64.urlsafe_b64encode(digest).rstrip(b'=').decode()}"

    def owned_id(self, credential: str | None) -> str | None:
        """The session id a credential proves, or None."""
        if not credential or len(credential) > _MAX_CREDENTIAL_CHARS:
            return None
        session_id = credential.rpartition(".")[0]
        presented = credential.encode("utf-8", "replace")
        return session_id if session_id and hmac.compare_digest(presented, self.credential(session_id).encode()) else None

    def claimed_id(self, headers: Mapping[str, str], cookies: Mapping[str, str]) -> str | None:
        """The session a connection proves it owns: the API header first, then the page's cookie."""
        return self.owned_id(headers.get(SESSION_HEADER)) or self.owned_id(cookies.get(SESSION_COOKIE))

    def page_cookie(self, scope: dict[str, Any], cookies: Mapping[str, str]) -> tuple[bytes, bytes] | None:
        """A ``Set-Cookie`` with a new session's credential for a visitor whose cookie proves none."""
        if self.owned_id(cookies.get(SESSION_COOKIE)) is not None:
            return None
        return set_cookie(SESSION_COOKIE, self.credential(new_id("sess")), SESSION_COOKIE_MAX_AGE_S, scope)


def sessions_router(keys: SessionKeys) -> APIRouter:
    """``POST /api/sessions``: a new session id and its credential, for API clients that want to resume."""
    router = APIRouter()

    @router.post("/api/sessions")
    async def issue() -> JSONResponse:
        session_id = new_id("sess")
        body = {"id": session_id, "credential": keys.credential(session_id), "header": "X-Voicechat-Session"}
        return JSONResponse(body, headers={"cache-control": "no-store"})

    return router
