"""Conversation history in SQLite (WAL), keyed by session id, so a reconnecting tab resumes.

Every write commits before it returns: a turn the client was told about survives a ``kill -9``
(WAL with ``synchronous=NORMAL`` loses nothing on a process crash, only on an OS crash).
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path

_SCHEMA = """
CREATE TABLE IF NOT EXISTS messages (
    seq        INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL,
    item_id    TEXT NOT NULL UNIQUE,
    role       TEXT NOT NULL,
    spoken     INTEGER NOT NULL,
    text       TEXT NOT NULL,
    created    REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS messages_by_session ON messages (session_id, seq);
"""


@dataclass(frozen=True)
class StoredMessage:
    """One message of a conversation; ``spoken`` marks audio input or spoken output."""

    item_id: str
    role: str
    text: str
    spoken: bool


class HistoryStore:
    """One SQLite connection shared by all sessions; calls run in a worker thread, serialised by a lock."""

    def __init__(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # synchronous API (tests, tools) -------------------------------------------------------

    def load_sync(self, session_id: str, limit: int = 1000) -> list[StoredMessage]:
        with self._lock:
            rows = self._db.execute(
                "SELECT item_id, role, text, spoken FROM ("
                " SELECT seq, item_id, role, text, spoken FROM messages WHERE session_id = ?"
                " ORDER BY seq DESC LIMIT ?) ORDER BY seq",
                (session_id, limit),
            ).fetchall()
        return [StoredMessage(item_id, role, text, bool(spoken)) for item_id, role, text, spoken in rows]

    def add_sync(self, session_id: str, message: StoredMessage) -> None:
        with self._lock:
            self._db.execute(
                "INSERT INTO messages (session_id, item_id, role, spoken, text, created) VALUES (?, ?, ?, ?, ?, ?)"
                " ON CONFLICT(item_id) DO UPDATE SET text = excluded.text",
                (session_id, message.item_id, message.role, int(message.spoken), message.text, time.time()),
            )

    def set_text_sync(self, item_id: str, text: str) -> bool:
        with self._lock:
            cursor = self._db.execute("UPDATE messages SET text = ? WHERE item_id = ?", (text, item_id))
        return cursor.rowcount > 0

    # async API (sessions) -----------------------------------------------------------------

    async def load(self, session_id: str, limit: int = 1000) -> list[StoredMessage]:
        return await asyncio.to_thread(self.load_sync, session_id, limit)

    async def add(self, session_id: str, message: StoredMessage) -> None:
        await asyncio.to_thread(self.add_sync, session_id, message)

    async def set_text(self, item_id: str, text: str) -> bool:
        return await asyncio.to_thread(self.set_text_sync, item_id, text)
