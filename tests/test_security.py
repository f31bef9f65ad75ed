"""An attacker's view of the real server on 127.0.0.1 (real models, real SQLite): sessions isolated,
session ids only from the server, Host checked, cookies only from matched credentials, /metrics guarded."""

from __future__ import annotations

import asyncio
import json
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from email.message import Message
from pathlib import Path
from typing import Any

import pytest
import websockets

from app.asr import create_recognizer
from app.config import Settings
from app.engine import create_backend
from app.tts import create_worker
from app.web.history import HistoryStore
from reliability_helpers import Server, running, serve_parts, wait_for_sessions


TOKEN = "s3cret-demo-token"


@pytest.fixture(scope="module")
def parts(settings: Settings, prepared: Any) -> Iterator[tuple[Any, Any, Any]]:
    """One real engine, recogniser and voice, shared by the apps of this module."""
    built = (create_backend(settings, model_path=str(prepared.llm_dir)), create_recognizer(settings, prepared),
             create_worker(settings, prepared))
    with running(*built):
        yield built


def _serve(settings: Settings, parts: Any, data_dir: Path, **overrides: object) -> Iterator[Server]:
    yield from serve_parts(settings.model_copy(update={"data_dir": data_dir, **overrides}), *parts)


@pytest.fixture(scope="module")
def server(settings: Settings, parts: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Default access rules, except that no proxy is trusted."""
    yield from _serve(settings, parts, tmp_path_factory.mktemp("security"), trusted_proxies="")


@pytest.fixture(scope="module")
def guarded(settings: Settings, parts: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """An access token, a known extra host name, tight per-client and request-time limits; 127.0.0.1 is
    a trusted proxy (the default), so a test can speak for other client addresses."""
    yield from _serve(settings, parts, tmp_path_factory.mktemp("guarded"), access_token=TOKEN,
                      allowed_hosts="demo.example", max_sessions_per_client=2, request_timeout_s=1.0)


def http(url: str, headers: dict[str, str] | None = None) -> tuple[int, Message, bytes]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def raw_request(port: int, request: bytes) -> bytes:
    """Sends bytes as they are (urllib refuses some of what an attacker sends) and reads to the close."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(request)
        response = b""
        while chunk := sock.recv(65536):
            response += chunk
            if b"\r\n\r\n" in response and b"connection: close" not in response.lower():
                break
        return response


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


# ---------------------------------------------------------------------- session ownership (item 2)


async def _open(url: str, headers: dict[str, str] | None = None, note: str | None = None) -> tuple[str, list[str]]:
    """Connects, optionally adds a typed item, and returns the session id and the item ids replayed
    to it on connecting (a resumed conversation is replayed before anything else is answered)."""
    async with websockets.connect(url, additional_headers=headers or {}) as ws:
        session_id = (await _next(ws, "session.created"))["session"]["id"]
        await ws.send(json.dumps({"type": "session.update", "session": {"instructions": "Be brief."}}))
        replayed = []
        while (event := json.loads(await asyncio.wait_for(ws.recv(), 30)))["type"] != "session.updated":
            if event["type"] == "conversation.item.done":
                replayed.append(event["item"]["id"])
        if note is not None:
            await ws.send(_typed(note, "remember this"))
            assert (await _next(ws, "conversation.item.done"))["item"]["id"] == note
    return session_id, replayed


def test_a_session_id_the_client_names_is_never_taken(server: Server):
    chosen = "known-id-0001"
    attempts = [
        (f"{server.ws_url}?session={chosen}", {}),
        (server.ws_url, {"Cookie": f"voicechat_session={chosen}"}),
        (server.ws_url, {"X-Voicechat-Session": f"{chosen}.forged-proof"}),
    ]
    for url, headers in attempts:
        session_id, replayed = asyncio.run(_open(url, headers))
        assert session_id != chosen and session_id.startswith("sess_") and replayed == []
        wait_for_sessions(server.base_url)


def test_the_page_cookie_resumes_its_conversation_and_the_bare_id_does_not(server: Server):
    status, headers, page = http(server.base_url + "/")
    cookie = next(c for c in headers.get_all("set-cookie") if c.startswith("voicechat_session="))
    assert status == 200 and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    credential = cookie.split(";", 1)[0].split("=", 1)[1]
    session_id, proof = credential.rsplit(".", 1)
    assert proof.encode() not in page

    with_cookie = {"Cookie": f"voicechat_session={credential}"}
    assert asyncio.run(_open(server.ws_url, with_cookie, note="item_owned_1")) == (session_id, [])
    wait_for_sessions(server.base_url)
    assert asyncio.run(_open(server.ws_url, with_cookie)) == (session_id, ["item_owned_1"])
    wait_for_sessions(server.base_url)
    stranger_id, replayed = asyncio.run(_open(f"{server.ws_url}?session={session_id}"))
    assert stranger_id != session_id and replayed == []
    wait_for_sessions(server.base_url)
    assert http(server.base_url + "/", with_cookie)[1].get_all("set-cookie") is None  # a valid cookie is kept


def test_an_api_client_resumes_with_the_credential_in_a_header(server: Server):
    request = urllib.request.Request(server.base_url + "/api/sessions", method="POST")
    with urllib.request.urlopen(request, timeout=30) as response:
        issued = json.loads(response.read())
        assert response.headers["cache-control"] == "no-store"
    header = {"X-Voicechat-Session": issued["credential"]}
    assert asyncio.run(_open(server.ws_url, header, note="item_api_1")) == (issued["id"], [])
    wait_for_sessions(server.base_url)
    assert asyncio.run(_open(server.ws_url, header)) == (issued["id"], ["item_api_1"])
    wait_for_sessions(server.base_url)
    tampered = {"X-Voicechat-Session": issued["credential"][:-1] + ("A" if issued["credential"][-1] != "A" else "B")}
    assert asyncio.run(_open(server.ws_url, tampered))[0] != issued["id"]
    wait_for_sessions(server.base_url)


def test_the_credential_is_not_on_the_dashboard(server: Server):
    async def watch() -> None:
        async with websockets.connect(server.ws_url, additional_headers=header) as ws:
            await _next(ws, "session.created")
            status, _, body = http(server.base_url + "/api/dashboard")
            assert status == 200 and len(json.loads(body)["sessions"]["list"]) == 1
            assert proof.encode() not in body and issued["id"].encode() not in body

    request = urllib.request.Request(server.base_url + "/api/sessions", method="POST")
    with urllib.request.urlopen(request, timeout=30) as response:
        issued = json.loads(response.read())
    header = {"X-Voicechat-Session": issued["credential"]}
    proof = issued["credential"].rsplit(".", 1)[1]
    asyncio.run(watch())
    wait_for_sessions(server.base_url)


# ---------------------------------------------------------------------- sessions per client (item 8)


def test_one_client_address_holds_at_most_its_share_of_the_sessions(guarded: Server):
    url = f"{guarded.ws_url}?token={TOKEN}"

    async def scenario() -> None:
        first = {"X-Forwarded-For": "203.0.113.7"}  # 127.0.0.1 is a trusted proxy of this server
        async with websockets.connect(url, additional_headers=first) as a, websockets.connect(url, additional_headers=first) as b:
            assert (await _next(a, "session.created"))["type"] == (await _next(b, "session.created"))["type"] == "session.created"
            async with websockets.connect(url, additional_headers=first) as refused:
                event = json.loads(await asyncio.wait_for(refused.recv(), 30))
                assert event["type"] == "error" and event["error"]["code"] == "too_many_sessions"
                with pytest.raises(websockets.ConnectionClosed):
                    await refused.recv()
                assert refused.close_code == 1013
            other = {"X-Forwarded-For": "198.51.100.4"}
            local = [websockets.connect(url) for _ in range(3)]  # this machine is not limited
            async with websockets.connect(url, additional_headers=other) as c, local[0] as d, local[1] as e, local[2] as f:
                for ws in (c, d, e, f):
                    assert (await _next(ws, "session.created"))["type"] == "session.created"

    asyncio.run(scenario())
    wait_for_sessions(guarded.base_url)


# ---------------------------------------------------------------------- cookies (item 6)


def test_a_cookie_carries_only_a_token_that_matched(guarded: Server):
    valid = {"Cookie": f"voicechat_token={TOKEN}"}
    status, headers, _ = http(f"{guarded.base_url}/?token=garbage;%20Domain=evil.example;%20Path=/x", valid)
    assert status == 401 and not headers.get_all("set-cookie")
    status, headers, _ = http(f"{guarded.base_url}/?token={TOKEN}")
    token_cookies = [c for c in headers.get_all("set-cookie") or [] if c.startswith("voicechat_token=")]
    assert token_cookies == [f"voicechat_token={TOKEN}; Max-Age=2592000; Path=/; HttpOnly; SameSite=Strict"]


@pytest.mark.parametrize("suffix", ["%0d%0aX-Injected:%201", "%0aSet-Cookie:%20a=b", "%0d"])
def test_a_token_with_a_line_break_gets_a_4xx_not_a_500(guarded: Server, suffix: str):
    response = raw_request(guarded.port, (
        f"GET /?token={TOKEN}{suffix} HTTP/1.1\r\nHost: 127.0.0.1:{guarded.port}\r\n"
        f"Cookie: voicechat_token={TOKEN}\r\nConnection: close\r\n\r\n").encode())
    status = int(response.split(b" ", 2)[1])
    assert 400 <= status < 500, response[:200]
    assert b"x-injected" not in response.lower() and b"a=b" not in response


# ---------------------------------------------------------------------- host names (item 7)


def test_a_rebinding_host_is_refused_on_http_and_websocket(guarded: Server):
    rebind = f"rebind.example:{guarded.port}"
    status, _, body = http(f"{guarded.base_url}/healthz", {"Host": rebind})
    assert status == 400 and b"allowed_hosts" in body
    assert http(f"{guarded.base_url}/?token={TOKEN}", {"Host": rebind})[0] == 400
    with pytest.raises(websockets.InvalidStatus) as refused:
        asyncio.run(_connect(guarded.ws_url + f"?token={TOKEN}", {"Host": rebind, "Origin": f"http://{rebind}"}))
    assert refused.value.response.status_code == 403
    for host in (f"127.0.0.1:{guarded.port}", f"localhost:{guarded.port}", "demo.example", f"DEMO.example.:{guarded.port}"):
        assert http(f"{guarded.base_url}/healthz", {"Host": host})[0] == 200, host
    assert asyncio.run(_connect(guarded.ws_url + f"?token={TOKEN}", {"Host": "demo.example"}))["type"] == "session.created"


async def _connect(url: str, headers: dict[str, str]) -> dict[str, Any]:
    """The first event of a session opened with these handshake headers."""
    async with websockets.connect(url, additional_headers=headers) as ws:
        return json.loads(await asyncio.wait_for(ws.recv(), 30))


# ---------------------------------------------------------------------- metrics, HTTPS, slow requests (item 9)


def test_metrics_follow_the_access_token_unless_opened_to_a_scraper(guarded: Server, settings: Settings, parts: Any,
                                                                    tmp_path: Path):
    assert http(guarded.base_url + "/metrics")[0] == 401
    status, _, body = http(guarded.base_url + "/metrics", {"Authorization": f"Bearer {TOKEN}"})
    assert status == 200 and b"voicechat" in body
    for scraped in _serve(settings, parts, tmp_path, access_token=TOKEN, metrics_public=True):
        assert http(scraped.base_url + "/metrics")[0] == 200
        assert http(scraped.base_url + "/")[0] == 401


def test_cookies_are_secure_behind_https_only_from_a_trusted_proxy(guarded: Server, server: Server):
    https = {"X-Forwarded-Proto": "https"}
    _, headers, _ = http(f"{guarded.base_url}/?token={TOKEN}", https)  # 127.0.0.1 is a trusted proxy here
    cookies = headers.get_all("set-cookie") or []
    assert cookies and all(c.endswith("; Secure") for c in cookies), cookies
    _, headers, _ = http(f"{guarded.base_url}/?token={TOKEN}")
    assert not any("Secure" in c for c in headers.get_all("set-cookie") or [])
    _, headers, _ = http(server.base_url + "/", https)  # no trusted proxy: the header is anyone's
    cookies = headers.get_all("set-cookie") or []
    assert cookies and not any("Secure" in c for c in cookies), cookies


def test_a_half_sent_request_is_timed_out_while_whole_ones_and_websockets_go_on(guarded: Server):
    with socket.create_connection(("127.0.0.1", guarded.port), timeout=30) as sock:
        sock.sendall(f"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:{guarded.port}\r\n".encode())
        assert _trickle_until_closed(sock, b"X-Slow: a\r\n").startswith(b"HTTP/1.1 408 ")
    with socket.create_connection(("127.0.0.1", guarded.port), timeout=30) as sock:
        sock.sendall(f"POST /healthz HTTP/1.1\r\nHost: 127.0.0.1:{guarded.port}\r\nContent-Length: 1000\r\n\r\n".encode())
        _trickle_until_closed(sock, b"x")  # a body that never ends
    with socket.create_connection(("127.0.0.1", guarded.port), timeout=30) as sock:  # keep-alive: one request per second
        for _ in range(3):
            sock.sendall(f"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:{guarded.port}\r\n\r\n".encode())
            assert sock.recv(65536).startswith(b"HTTP/1.1 200 ")
            time.sleep(0.7)

    async def long_session() -> None:
        async with websockets.connect(f"{guarded.ws_url}?token={TOKEN}") as ws:
            assert (await _next(ws, "session.created"))["type"] == "session.created"
            await asyncio.sleep(2.5)  # past the request deadline
            await ws.send(json.dumps({"type": "session.update", "session": {"instructions": "Be brief."}}))
            assert (await _next(ws, "session.updated"))["type"] == "session.updated"

    asyncio.run(long_session())


def _trickle_until_closed(sock: socket.socket, piece: bytes, limit_s: float = 30.0) -> bytes:
    """Sends ``piece`` every 0.2 s until the server closes the connection; returns what it answered."""
    sock.settimeout(0.2)
    answer = b""
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            try:
                sock.sendall(piece)
            except OSError:
                return answer
            continue
        except OSError:
            return answer
        if not chunk:
            return answer
        answer += chunk
    raise AssertionError(f"the server kept a half-sent request open for {limit_s:g} s")


# ---------------------------------------------------------------------- history quota (item 8)


def test_a_conversation_over_its_history_quota_gets_an_error_and_goes_on(settings: Settings, parts: Any, tmp_path: Path):
    async def scenario(ws_url: str) -> str:
        async with websockets.connect(ws_url) as ws:
            session_id = (await _next(ws, "session.created"))["session"]["id"]
            for index in range(2):
                await ws.send(_typed(f"item_quota_{index}", f"note {index}"))
                assert (await _next(ws, "conversation.item.done"))["item"]["id"] == f"item_quota_{index}"
            await ws.send(_typed("item_quota_2", "one too many"))
            error = await _next(ws, "conversation.item.done")
            assert error["type"] == "error" and error["error"]["code"] == "history_quota_exceeded", error
            await ws.send(json.dumps({"type": "session.update", "session": {"instructions": "Still here?"}}))
            assert (await _next(ws, "session.updated"))["session"]["instructions"] == "Still here?"
            return session_id

    for small in _serve(settings, parts, tmp_path, history_session_max_messages=2):
        session_id = asyncio.run(scenario(small.ws_url))
        assert [item for item, _ in stored(small, session_id)] == ["item_quota_0", "item_quota_1"]
