"""The history store on a real SQLite file: items scoped by session, schema migrations, quotas, retention."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from app.web.history import (
    _CREATE_MESSAGES_V1,
    SCHEMA_VERSION,
    HistoryLimits,
    HistoryQuotaExceeded,
    HistoryStore,
    StoredMessage,
)

# The schema every database had before schema versions: item ids unique across all sessions.
FIRST_SCHEMA = """
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


class Clock:
    def __init__(self, now: float = 1_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


def texts(store: HistoryStore, session_id: str) -> list[tuple[str, str]]:
    return [(m.item_id, m.text) for m in store.load_sync(session_id)]


def test_an_item_id_of_another_session_never_touches_that_sessions_message(tmp_path: Path):
    store = HistoryStore(tmp_path / "history.sqlite3")
    store.add_sync("sess_victim", StoredMessage("item_1", "user", "my private note", spoken=False))
    store.add_sync("sess_attacker", StoredMessage("item_1", "user", "overwritten", spoken=False))
    assert store.set_text_sync("sess_attacker", "item_1", "truncated") is True
    assert store.set_text_sync("sess_attacker", "item_2", "nothing there") is False

    assert texts(store, "sess_victim") == [("item_1", "my private note")]
    assert texts(store, "sess_attacker") == [("item_1", "truncated")]
    store.close()


def test_the_same_item_of_the_same_session_is_replaced_not_duplicated(tmp_path: Path):
    store = HistoryStore(tmp_path / "history.sqlite3")
    store.add_sync("sess_a", StoredMessage("item_1", "assistant", "a long reply", spoken=True))
    store.add_sync("sess_a", StoredMessage("item_1", "assistant", "a long", spoken=True))
    assert texts(store, "sess_a") == [("item_1", "a long")]
    store.close()


def test_a_database_of_the_first_schema_is_migrated_and_keeps_its_messages(tmp_path: Path):
    path = tmp_path / "history.sqlite3"
    db = sqlite3.connect(path)
    db.executescript(FIRST_SCHEMA)
    rows = [
        ("sess_a", "item_1", "user", 1, "hello", 10.0),
        ("sess_b", "item_2", "user", 0, "bonjour", 11.0),
        ("sess_a", "item_3", "assistant", 1, "hi there", 12.0),
    ]
    db.executemany("INSERT INTO messages (session_id, item_id, role, spoken, text, created) VALUES (?, ?, ?, ?, ?, ?)", rows)
    db.commit()
    assert db.execute("PRAGMA user_version").fetchone()[0] == 0
    db.close()

    store = HistoryStore(path)  # no retention: the old timestamps stay
    assert store.load_sync("sess_a") == [
        StoredMessage("item_1", "user", "hello", True),
        StoredMessage("item_3", "assistant", "hi there", True),
    ]
    assert store.load_sync("sess_b") == [StoredMessage("item_2", "user", "bonjour", False)]
    store.add_sync("sess_b", StoredMessage("item_1", "user", "same id, other session", spoken=False))
    store.add_sync("sess_a", StoredMessage("item_4", "user", "after the migration", spoken=False))
    assert [m.item_id for m in store.load_sync("sess_a")] == ["item_1", "item_3", "item_4"]
    store.close()

    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert db.execute("SELECT text FROM messages WHERE session_id = 'sess_a' AND item_id = 'item_1'").fetchone() == ("hello",)
    tables = sorted(r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'"))
    assert tables == ["messages", "sqlite_sequence"]
    db.close()
    HistoryStore(path).close()  # opening a current database again changes nothing


def ids(store: HistoryStore, session_id: str = "sess_a") -> list[str]:
    return [m.item_id for m in store.load_sync(session_id)]


def test_items_keep_the_conversations_order_not_the_order_they_were_stored_in(tmp_path: Path):
    store = HistoryStore(tmp_path / "history.sqlite3")
    say = lambda item_id: StoredMessage(item_id, "user", item_id, spoken=False)  # noqa: E731
    store.add_sync("sess_a", say("a"))
    store.add_sync("sess_a", say("b"))
    store.add_sync("sess_a", say("x"), previous="a", following="b")  # inserted after a
    store.add_sync("sess_a", say("first"), following="a")  # inserted at the root
    store.add_sync("sess_a", say("voice"), previous="not stored yet", following="x")  # its predecessor is still in ASR
    store.add_sync("sess_a", say("a"))  # a rewrite keeps its place
    assert ids(store) == ["first", "a", "voice", "x", "b"]
    for n in range(80):  # more inserts at one place than halving a float allows: the positions are renumbered
        store.add_sync("sess_a", say(f"n{n}"), previous="a", following="voice" if n == 0 else f"n{n - 1}")
    assert ids(store) == ["first", "a", *[f"n{n}" for n in reversed(range(80))], "voice", "x", "b"]
    assert ids(store, "sess_b") == [] and store.load_sync("sess_a", limit=2)[-1].item_id == "b"
    store.close()


def test_a_database_of_the_second_schema_gets_positions_in_its_stored_order(tmp_path: Path):
    path = tmp_path / "history.sqlite3"
    db = sqlite3.connect(path)
    db.executescript(_CREATE_MESSAGES_V1 + "PRAGMA user_version = 1;")
    db.executemany("INSERT INTO messages (session_id, item_id, role, spoken, text, created) VALUES (?, ?, 'user', 0, ?, 1.0)",
                   [("sess_a", "one", "1"), ("sess_b", "other", "o"), ("sess_a", "two", "2")])  # fmt: skip
    db.commit()
    db.close()
    store = HistoryStore(path)
    assert ids(store) == ["one", "two"]
    store.add_sync("sess_a", StoredMessage("zero", "user", "0", spoken=False), following="one")
    assert ids(store) == ["zero", "one", "two"] and ids(store, "sess_b") == ["other"]
    store.close()


def test_a_database_from_a_newer_server_is_refused_with_its_version(tmp_path: Path):
    path = tmp_path / "history.sqlite3"
    HistoryStore(path).close()
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    with pytest.raises(RuntimeError, match=f"schema version {SCHEMA_VERSION + 1}"):
        HistoryStore(path)


def test_a_conversation_over_its_quota_is_refused_and_nothing_is_stored(tmp_path: Path):
    store = HistoryStore(tmp_path / "history.sqlite3", HistoryLimits(session_max_messages=2))
    store.add_sync("sess_a", StoredMessage("item_1", "user", "one", spoken=False))
    store.add_sync("sess_a", StoredMessage("item_2", "assistant", "two", spoken=False))
    with pytest.raises(HistoryQuotaExceeded, match="maximum of 2 messages") as refused:
        store.add_sync("sess_a", StoredMessage("item_3", "user", "three", spoken=False))
    assert refused.value.code == "history_quota_exceeded"
    store.add_sync("sess_a", StoredMessage("item_2", "assistant", "tw", spoken=False))  # a replacement adds nothing
    store.add_sync("sess_b", StoredMessage("item_1", "user", "another conversation has its own quota", spoken=False))
    assert texts(store, "sess_a") == [("item_1", "one"), ("item_2", "tw")]
    store.close()


def test_the_total_quota_counts_the_text_of_every_conversation(tmp_path: Path):
    path = tmp_path / "history.sqlite3"
    store = HistoryStore(path, HistoryLimits(max_text_bytes=100))
    store.add_sync("sess_a", StoredMessage("item_1", "user", "x" * 60, spoken=False))
    with pytest.raises(HistoryQuotaExceeded, match="storage is full"):
        store.add_sync("sess_b", StoredMessage("item_1", "user", "y" * 41, spoken=False))
    store.set_text_sync("sess_a", "item_1", "x" * 20)  # a truncation frees room
    store.add_sync("sess_b", StoredMessage("item_1", "user", "y" * 41, spoken=False))
    store.close()
    reopened = HistoryStore(path, HistoryLimits(max_text_bytes=100))  # the count survives a restart
    with pytest.raises(HistoryQuotaExceeded):
        reopened.add_sync("sess_c", StoredMessage("item_1", "user", "z" * 40, spoken=False))
    reopened.close()


def test_conversations_idle_past_the_retention_period_are_deleted(tmp_path: Path):
    clock = Clock()
    path = tmp_path / "history.sqlite3"
    limits = HistoryLimits(retention_s=86400.0)
    store = HistoryStore(path, limits, clock=clock)
    store.add_sync("sess_old", StoredMessage("item_1", "user", "long ago", spoken=False))
    clock.now += 50_000
    store.add_sync("sess_recent", StoredMessage("item_1", "user", "earlier", spoken=False))
    clock.now += 50_000
    assert store.prune_sync() == 1
    store.add_sync("sess_recent", StoredMessage("item_2", "user", "now", spoken=False))
    assert texts(store, "sess_old") == []
    assert texts(store, "sess_recent") == [("item_1", "earlier"), ("item_2", "now")]  # a live conversation stays whole
    store.close()

    clock.now += 2 * 86400
    HistoryStore(path, limits, clock=clock).close()  # retention also runs when the server starts
    assert HistoryStore(path).load_sync("sess_recent") == []


def test_retention_runs_while_the_server_is_up_at_most_hourly(tmp_path: Path):
    clock = Clock()
    store = HistoryStore(tmp_path / "history.sqlite3", HistoryLimits(retention_s=600.0), clock=clock)
    store.add_sync("sess_old", StoredMessage("item_1", "user", "old", spoken=False))
    clock.now += 1800  # past retention, within the hour: kept until the next pass
    store.add_sync("sess_new", StoredMessage("item_1", "user", "new", spoken=False))
    assert texts(store, "sess_old") == [("item_1", "old")]
    clock.now += 1800
    store.add_sync("sess_new", StoredMessage("item_2", "user", "newer", spoken=False))
    assert texts(store, "sess_old") == []
    store.close()
