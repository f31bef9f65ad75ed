"""Session fixation through a link, in headless Chromium against the real server: a ``?session=`` in
the page's URL is neither used nor stored, and the conversation stays reachable only with the page's
HttpOnly cookie."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright
from websockets.sync.client import connect

from app.config import Settings
from app.web.server import ServerThread, create_app

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
PLANTED = "known-id-0001"  # the id an attacker's link carries


@pytest.fixture(scope="module")
def base_url(settings: Settings, prepared, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    own = settings.model_copy(update={"data_dir": tmp_path_factory.mktemp("fixation")})
    with ServerThread(create_app(own, prepared=prepared)) as url:
        yield url


def _replayed(url: str) -> tuple[str, list[str]]:
    """What a connection that names an id gets: its session id and the items replayed to it."""
    with connect(url) as ws:
        session_id = json.loads(ws.recv(timeout=30))["session"]["id"]
        ws.send(json.dumps({"type": "session.update", "session": {"instructions": "Be brief."}}))
        items = []
        while (event := json.loads(ws.recv(timeout=30)))["type"] != "session.updated":
            if event["type"] == "conversation.item.done":
                items.append(event["item"]["content"][0].get("text", ""))
        return session_id, items


def test_a_link_with_a_session_id_does_not_fix_the_victims_session(base_url: str):
    if not Path(CHROMIUM).exists():
        pytest.fail(f"the browser tests need Chromium at {CHROMIUM}: apt-get install chromium (never skipped)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"])
        try:
            page = browser.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(f"{base_url}/?session={PLANTED}")
            page.wait_for_function("() => window.voicechat && window.voicechat.connected && window.voicechat.sessionId")
            victim_id = page.evaluate("() => window.voicechat.sessionId")
            assert victim_id != PLANTED
            assert page.evaluate("() => localStorage.getItem('voicechat.session')") is None
            assert "voicechat_session" not in page.evaluate("() => document.cookie")  # HttpOnly: no script reads it
            page.get_by_role("textbox", name="Message").fill("my account number is 12345")
            page.get_by_role("textbox", name="Message").press("Enter")
            page.wait_for_function("() => window.voicechat.messages.some((m) => m.role === 'user')")

            ws_url = base_url.replace("http://", "ws://") + "/ws"
            for url in (f"{ws_url}?session={PLANTED}", f"{ws_url}?session={victim_id}"):
                attacker_id, replayed = _replayed(url)
                assert attacker_id not in (PLANTED, victim_id) and replayed == []

            page.reload()  # the victim's own cookie still resumes the conversation
            page.wait_for_function("() => window.voicechat && window.voicechat.connected"
                                   " && window.voicechat.messages.some((m) => m.role === 'user')")
            assert page.evaluate("() => window.voicechat.sessionId") == victim_id
            assert not errors, errors
        finally:
            browser.close()
