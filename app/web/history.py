"""Conversation history in SQLite (WAL), keyed by session id, so a reconnecting tab resumes.

Every write commits before it returns: a turn the client was told about survives a ``kill -9``
(WAL with ``synchronous=NORMAL`` loses nothing on a process crash, only on an OS crash).

Items keep the conversation's order, not the order they were stored in: an item inserted after another (or
first) takes a position between its neighbours, so a resumed conversation replays as it was.

An item id names an item inside one conversation only: every read and write is scoped by
``(session_id, item_id)``, so no session can reach another's messages by naming their ids.
The store is bounded: a quota per session and one on all text stored, and conversations idle
longer than the retention period are deleted.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from app.config import Settings

SCHEMA_VERSION = 2  # PRAGMA user_version; 0: item ids unique across all sessions; 1: no positions (stored order)
PRUNE_INTERVAL_S = 3600.0  # retention is applied on open and then at most this often

_CREATE_MESSAGES_V1 = """
CREATE TABLE messages (
    seq        INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL,
    item_id    TEXT NOT NULL,
    role       TEXT NOT NULL,
    spoken     INTEGER NOT NULL,
    text       TEXT NOT NULL,
    created    REAL NOT NULL,
    UNIQUE (session_id, item_id)
);
CREATE INDEX messages_by_session ON messages (session_id, seq);
"""

_CREATE_MESSAGES = """
CREATE TABLE messages (
    seq        INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL,
    item_id    TEXT NOT NULL,
    role       TEXT NOT NULL,
    spoken     INTEGER NOT NULL,
    text       TEXT NOT NULL,
    created    REAL NOT NULL,
    position   REAL NOT NULL,
    UNIQUE (session_id, item_id)
);
CREATE INDEX messages_in_order ON messages (session_id, position);
"""

# Each step takes the database from version N-1 to N inside one transaction.
_MIGRATIONS: dict[int, str] = {
    1: """
    ALTER TABLE messages RENAME TO messages_v0;
    DROP INDEX IF EXISTS messages_by_session;
    """
    + _CREATE_MESSAGES_V1
    + """
    INSERT INTO messages (seq, session_id, item_id, role, spoken, text, created)
        SELECT seq, session_id, item_id, role, spoken, text, created FROM messages_v0 ORDER BY seq;
    DROP TABLE messages_v0;
    """,
    2: """
    ALTER TABLE messages ADD COLUMN position REAL NOT NULL DEFAULT 0;
    UPDATE messages SET position = seq;
    DROP INDEX IF EXISTS messages_by_session;
    CREATE INDEX messages_in_order ON messages (session_id, position);
    """,
}


class HistoryQuotaExceeded(Exception):
    """A message would take a conversation or the whole store over its quota; nothing was stored.
    ``code`` is the ``error`` event code a session answers with."""

    code = "history_quota_exceeded"


@dataclass(frozen=True)
class StoredMessage:
    """One message of a conversation; ``spoken`` marks audio input or spoken output."""

    item_id: str
    role: str
    text: str
    spoken: bool


@dataclass(frozen=True)
class HistoryLimits:
    """Quotas and retention; 0 turns a bound off."""

    session_max_messages: int = 0
    max_text_bytes: int = 0
    retention_s: float = 0.0


def _text_bytes(text: str) -> int:
    return len(text.encode("utf-8", "replace"))


class HistoryStore:
    """One SQLite connection shared by all sessions; calls run in a worker thread, serialised by a lock."""

    def __init__(self, path: Path, limits: HistoryLimits = HistoryLimits(), clock: Callable[[], float] = time.time):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.limits = limits
        self._clock = clock
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._migrate()
        self._pruned_at = 0.0
        self._text_bytes = 0
        with self._lock:
            self._prune_locked()

    def _migrate(self) -> None:
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise RuntimeError(
                f"{self.path} has history schema version {version}, newer than this server's {SCHEMA_VERSION}"
            )
        has_table = self._db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'messages'").fetchone()
        if not has_table:
            steps = [_CREATE_MESSAGES]
        elif version < SCHEMA_VERSION:
            steps = [_MIGRATIONS[v] for v in range(version + 1, SCHEMA_VERSION + 1)]
        else:
            return
        try:
            self._db.executescript(
                "BEGIN IMMEDIATE;\n" + "\n".join(steps) + f"\nPRAGMA user_version = {SCHEMA_VERSION};\nCOMMIT;"
            )
        except sqlite3.Error:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # synchronous API (tests, tools) -------------------------------------------------------

    def load_sync(self, session_id: str, limit: int = 1000) -> list[StoredMessage]:
        """The conversation's last ``limit`` items, in its order."""
        with self._lock:
            rows = self._db.execute(
                "SELECT item_id, role, text, spoken FROM ("
                " SELECT position, item_id, role, text, spoken FROM messages WHERE session_id = ?"
                " ORDER BY position DESC LIMIT ?) ORDER BY position",
                (session_id, limit),
            ).fetchall()
        return [StoredMessage(item_id, role, text, bool(spoken)) for item_id, role, text, spoken in rows]

    def add_sync(self, session_id: str, message: StoredMessage, previous: str | None = None,
                 following: str | None = None) -> None:  # fmt: skip
        """Store a message after the item ``previous`` (else before ``following``, else at the end); a second write of
        the same item of the same session replaces its text and keeps its place. Raises HistoryQuotaExceeded (storing
        nothing) when a quota would be passed."""
        size = _text_bytes(message.text)
        with self._lock:
            if self._clock() - self._pruned_at >= PRUNE_INTERVAL_S:
                self._prune_locked()
            count, old = self._db.execute(
                "SELECT COUNT(*), SUM(CASE WHEN item_id = ? THEN length(CAST(text AS BLOB)) END)"
                " FROM messages WHERE session_id = ?",
                (message.item_id, session_id),
            ).fetchone()
            session_cap = self.limits.session_max_messages
            if old is None and session_cap and count >= session_cap:
                raise HistoryQuotaExceeded(f"this conversation holds its maximum of {session_cap} messages")
            grown = self._text_bytes + size - (old or 0)
            if self.limits.max_text_bytes and size > (old or 0) and grown > self.limits.max_text_bytes:
                raise HistoryQuotaExceeded("the server's history storage is full; the message was not stored")
            position = self._position_locked(session_id, previous, following) if old is None else 0.0
            self._db.execute(
                "INSERT INTO messages (session_id, item_id, role, spoken, text, created, position)"
                " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(session_id, item_id) DO UPDATE SET text = excluded.text",
                (session_id, message.item_id, message.role, int(message.spoken), message.text, self._clock(), position),
            )
            self._text_bytes = grown

    def _position_locked(self, session_id: str, previous: str | None, following: str | None) -> float:
        """A position right after ``previous``, else right before ``following`` (whichever is stored), else after all;
        the conversation's positions are renumbered when two neighbours have no room left between them."""

        def one(sql: str, *args: object) -> float | None:
            row = self._db.execute(sql, (session_id, *args)).fetchone()
            return None if row is None else row[0]

        def of(item_id: str | None) -> float | None:
            return None if item_id is None else one("SELECT position FROM messages WHERE session_id = ? AND item_id = ?", item_id)

        for _ in range(2):
            if (low := of(previous)) is not None:
                high = one("SELECT MIN(position) FROM messages WHERE session_id = ? AND position > ?", low)
            elif (high := of(following)) is not None:
                low = one("SELECT MAX(position) FROM messages WHERE session_id = ? AND position < ?", high)
            else:
                last = one("SELECT MAX(position) FROM messages WHERE session_id = ?")
                return 0.0 if last is None else last + 1.0
            if low is None or high is None:
                return high - 1.0 if low is None else low + 1.0
            middle = (low + high) / 2
            if low < middle < high:
                return middle
            in_order = self._db.execute(  # no float between them: 0, 1, 2, ... in the conversation's order
                "SELECT seq FROM messages WHERE session_id = ? ORDER BY position, seq", (session_id,)).fetchall()
            self._db.execute("BEGIN IMMEDIATE")
            renumbered = [(position, seq) for position, (seq,) in enumerate(in_order)]
            self._db.executemany("UPDATE messages SET position = ? WHERE seq = ?", renumbered)
            self._db.execute("COMMIT")
        raise AssertionError("positions renumbered and still no room")

    def set_text_sync(self, session_id: str, item_id: str, text: str) -> bool:
        """Replace the text of one item of one session (a truncated reply); False when there is none."""
        with self._lock:
            row = self._db.execute(
                "SELECT length(CAST(text AS BLOB)) FROM messages WHERE session_id = ? AND item_id = ?",
                (session_id, item_id),
            ).fetchone()
            if row is None:
                return False
            self._db.execute(
                "UPDATE messages SET text = ? WHERE session_id = ? AND item_id = ?", (text, session_id, item_id)
            )
            self._text_bytes += _text_bytes(text) - row[0]
        return True

    def prune_sync(self) -> int:
        """Delete the conversations idle past the retention period now; returns the messages deleted."""
        with self._lock:
            return self._prune_locked()

    def _prune_locked(self) -> int:
        deleted = 0
        if self.limits.retention_s > 0:
            cutoff = self._clock() - self.limits.retention_s
            deleted = self._db.execute(
                "DELETE FROM messages WHERE session_id IN"
                " (SELECT session_id FROM messages GROUP BY session_id HAVING MAX(created) < ?)",
                (cutoff,),
            ).rowcount
        self._pruned_at = self._clock()
        self._text_bytes = self._db.execute("SELECT COALESCE(SUM(length(CAST(text AS BLOB))), 0) FROM messages").fetchone()[0]
        return deleted

    # async API (sessions) -----------------------------------------------------------------

    async def load(self, session_id: str, limit: int = 1000) -> list[StoredMessage]:
        return await asyncio.to_thread(self.load_sync, session_id, limit)

    async def add(self, session_id: str, message: StoredMessage, previous: str | None = None,
                  following: str | None = None) -> None:  # fmt: skip
        await asyncio.to_thread(self.add_sync, session_id, message, previous, following)

    async def set_text(self, session_id: str, item_id: str, text: str) -> bool:
        return await asyncio.to_thread(self.set_text_sync, session_id, item_id, text)


def history_limits(settings: Settings) -> HistoryLimits:
    """The store's bounds from the ``history_*`` settings."""
    return HistoryLimits(
        session_max_messages=settings.history_session_max_messages,
        max_text_bytes=int(settings.history_max_mb * 1024**2),
        retention_s=settings.history_retention_days * 86400.0,
    )
