"""An attacker's view of the real server on 127.0.0.1 (real models, real SQLite): sessions isolated,
session ids only from the server, Host checked, cookies only from matched credentials, /metrics guarded."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import websockets

from app.config import Settings
from app.web.history import HistoryStore
from app.web.server import ServerThread, create_app


@dataclass
class Server:
    base_url: str
    ws_url: str
    port: int
    settings: Settings


def _serve(settings: Settings, prepared: Any, data_dir: Path, **overrides: object) -> Iterator[Server]:
    app_settings = settings.model_copy(update={"data_dir": data_dir, **overrides})
    with ServerThread(create_app(app_settings, prepared=prepared)) as base_url:
        port = int(base_url.rsplit(":", 1)[1])
        yield Server(base_url, base_url.replace("http://", "ws://") + "/ws", port, app_settings)


@pytest.fixture(scope="module")
def server(settings: Settings, prepared: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from _serve(settings, prepared, tmp_path_factory.mktemp("security"))


async def _next(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        event = json.loads(await asyncio.wait_for(ws.recv(), 30))
        if event["type"] in (kind, "error"):
            return event


def _typed(item_id: str, text: str) -> str:
    return json.dumps({"type": "conversation.item.create", "item": {
        "id": item_id, "type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}})


def stored(server: Server, session_id: str) -> list[tuple[str, str]]:
    store = HistoryStore(Path(server.settings.data_dir) / "history.sqlite3")
    try:
        return [(m.item_id, m.text) for m in store.load_sync(session_id)]
    finally:
        store.close()


async def test_an_item_id_of_another_session_cannot_overwrite_its_message(server: Server):
    async with websockets.connect(server.ws_url) as victim, websockets.connect(server.ws_url) as attacker:
        victim_id = (await _next(victim, "session.created"))["session"]["id"]
        attacker_id = (await _next(attacker, "session.created"))["session"]["id"]
        await victim.send(_typed("item_private_note", "my private note"))
        assert (await _next(victim, "conversation.item.done"))["item"]["id"] == "item_private_note"
        await attacker.send(_typed("item_private_note", "overwritten by someone else"))
        assert (await _next(attacker, "conversation.item.done"))["item"]["id"] == "item_private_note"
    assert stored(server, victim_id) == [("item_private_note", "my private note")]
    assert stored(server, attacker_id) == [("item_private_note", "overwritten by someone else")]
