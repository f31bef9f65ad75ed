"""A real ``voicechat serve`` process: ``kill -9`` loses no acknowledged turn, a restart restores each
conversation to its credential, SIGTERM shuts down gracefully, and the log holds no token, session id or text."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
import websockets

from app.bench.client import RealtimeClient
from app.config import Settings
from app.web.ownership import SessionKeys

ROOT = Path(__file__).resolve().parents[1]
TOKEN = "tok-0123456789-never-logged"
SECRET_WORDS = "purple elephant umbrella"  # typed by the users; must never reach the log
LONG_REPLY = "You are a storyteller. Always answer with a long story of at least ten sentences."
START_TIMEOUT_S = 300


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class ServeProcess:
    """``voicechat serve`` in a child process, its output collected."""

    def __init__(self, settings: Settings, data_dir: Path):
        self.port = free_port()
        env = {
            **os.environ,
            "VOICECHAT_MODEL_DIR": str(settings.model_dir),
            "VOICECHAT_LLM_MODEL": settings.llm_model,
            "VOICECHAT_DATA_DIR": str(data_dir),
            "VOICECHAT_HOST": "127.0.0.1",
            "VOICECHAT_PORT": str(self.port),
            "VOICECHAT_LOG_LEVEL": "info",
            "VOICECHAT_ACCESS_TOKEN": TOKEN,
        }
        command = Path(sys.executable).with_name("voicechat")
        self.proc = subprocess.Popen(
            [str(command), "serve"], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        self.lines: list[str] = []
        self._reader = threading.Thread(target=self._collect, daemon=True)
        self._reader.start()
        self._wait_ready()

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws?token={TOKEN}"

    def _collect(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line)

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                pytest.fail("voicechat serve exited while starting:\n" + "".join(self.lines[-40:]))
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=5):
                    return
            except OSError:
                time.sleep(0.2)
        self.proc.kill()
        pytest.fail(f"voicechat serve did not answer within {START_TIMEOUT_S} s")

    def output(self) -> str:
        self._reader.join(timeout=10)
        return "".join(self.lines)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=30)


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("serve-data")


@pytest.fixture(scope="module")
def processes(settings: Settings, prepared) -> Iterator[list[ServeProcess]]:
    started: list[ServeProcess] = []
    yield started
    for process in started:
        process.stop()


def stored(data_dir: Path) -> dict[str, tuple[str, str, str]]:
    """item id -> (session id, role, text), read the way an outsider would: a fresh SQLite connection."""
    db = sqlite3.connect(str(data_dir / "history.sqlite3"))
    try:
        rows = db.execute("SELECT item_id, session_id, role, text FROM messages").fetchall()
    finally:
        db.close()
    return {item: (session, role, text) for item, session, role, text in rows}


async def _typed_user(url: str, index: int, acked: list[tuple[str, str, str, str]], stop: asyncio.Event) -> None:
    """Types until told to stop; records every turn the server acknowledged (its response.done)."""
    async with RealtimeClient(url) as client:
        await client.send({"type": "session.update", "session": {"output_modalities": ["text"]}})
        await client.wait_for("session.updated")
        session_id = client.session["id"]
        turn = 0
        while not stop.is_set():
            seen = len(client.events)
            text = f"Question {index}.{turn}: what rhymes with {SECRET_WORDS.split()[turn % 3]}?"
            await client.say_text(text)
            user = await client.wait_for("conversation.item.done", lambda e: e["item"]["role"] == "user", after=seen)
            reply = await client.next_reply(after=seen, timeout=180)
            answer = reply.done["output"][0]
            acked.append((session_id, user["item"]["id"], "user", text))
            acked.append((session_id, answer["id"], "assistant", answer["content"][0]["text"]))
            turn += 1


async def _activity_then_kill(process: ServeProcess, acked: list[tuple[str, str, str, str]]) -> None:
    stop = asyncio.Event()
    users = [asyncio.create_task(_typed_user(process.ws_url, i, acked, stop)) for i in range(3)]
    deadline = time.monotonic() + 240
    while len(acked) < 8 and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
        if any(task.done() and task.exception() for task in users):
            break
    for task in users:
        if task.done() and task.exception():
            raise task.exception()  # type: ignore[misc]
    process.proc.send_signal(signal.SIGKILL)  # during activity: the users are mid-turn
    process.proc.wait(timeout=30)
    stop.set()
    await asyncio.gather(*users, return_exceptions=True)


def test_kill_9_loses_no_acknowledged_turn_and_a_restart_restores_history(settings, processes, data_dir):
    first = ServeProcess(settings, data_dir)
    processes.append(first)
    acked: list[tuple[str, str, str, str]] = []
    asyncio.run(_activity_then_kill(first, acked))
    assert first.proc.returncode == -signal.SIGKILL
    assert len(acked) >= 8
    rows = stored(data_dir)
    for session_id, item_id, role, text in acked:
        assert rows.get(item_id) == (session_id, role, text), f"acknowledged {role} item {item_id} was lost"

    second = ServeProcess(settings, data_dir)
    processes.append(second)
    sessions = {session_id for session_id, *_ in acked}

    keys = SessionKeys(data_dir)  # the first process's key, read from the data directory: credentials outlive it

    async def replayed(session_id: str) -> list[tuple[str, str]]:
        owner = {"X-Voicechat-Session": keys.credential(session_id)}
        async with websockets.connect(second.ws_url, additional_headers=owner, max_size=None) as ws:
            assert json.loads(await ws.recv())["session"]["id"] == session_id
            await ws.send(json.dumps({"type": "session.update", "session": {"instructions": "marker"}}))
            items = []
            while (event := json.loads(await asyncio.wait_for(ws.recv(), 60)))["type"] != "session.updated":
                if event["type"] == "conversation.item.done":
                    items.append((event["item"]["id"], event["item"]["role"]))
            return items

    for session_id in sessions:
        items = asyncio.run(replayed(session_id))
        expected = [(item_id, role) for sid, item_id, role, _ in acked if sid == session_id]
        assert items[: len(expected)] == expected


def test_sigterm_finishes_gracefully_and_stores_the_reply_in_flight(settings, processes, data_dir):
    server = processes[-1] if processes and processes[-1].proc.poll() is None else ServeProcess(settings, data_dir)
    if server not in processes:
        processes.append(server)

    async def scenario() -> tuple[str, str, int | None]:
        client = RealtimeClient(server.ws_url)
        await client.connect()
        await client.send({"type": "session.update", "session": {"instructions": LONG_REPLY, "output_modalities": ["text"]}})
        await client.wait_for("session.updated")
        await client.say_text(f"Tell me a long story about a {SECRET_WORDS}.")
        added = await client.wait_for("response.output_item.added", timeout=120)
        await client.wait_for("response.output_text.delta", timeout=120)
        server.proc.send_signal(signal.SIGTERM)
        code = await client.closed(timeout=30)
        with pytest.raises(OSError):  # no longer accepting
            await websockets.connect(server.ws_url, open_timeout=5)
        received = client.current.text if client.current else ""
        return added["item"]["id"], received, code

    item_id, received, close_code = asyncio.run(scenario())
    # uvicorn re-raises the signal once it has shut down, so a graceful exit still ends "by SIGTERM"
    assert server.proc.wait(timeout=60) in (0, -signal.SIGTERM)
    assert close_code in (1001, 1012)
    log = server.output()
    assert "Application shutdown complete" in log  # the lifespan ran to its end: sessions closed, history closed
    session_id, role, text = stored(data_dir)[item_id]
    assert role == "assistant" and text and text.startswith(received.strip()[:20])


def test_the_log_holds_no_token_no_session_id_and_no_user_text(processes, data_dir):
    assert processes, "run with the tests above"
    log = "".join(process.output() for process in processes)
    assert "WebSocket /ws" in log  # request lines are logged, redacted
    assert TOKEN not in log
    assert "token=***" in log
    db = sqlite3.connect(str(data_dir / "history.sqlite3"))
    sessions = [row[0] for row in db.execute("SELECT DISTINCT session_id FROM messages")]
    db.close()
    assert sessions and not any(session in log for session in sessions)
    for word in SECRET_WORDS.split():
        assert word not in log
