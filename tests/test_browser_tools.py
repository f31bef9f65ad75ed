"""The page's own tools in headless Chromium, against the real server with the packaged Qwen2.5 1.5B (a
model with a tool format): a spoken "what time is it" is answered from the page's clock, and a spoken
"set a timer for ten seconds" shows a timer on the page that counts down and fires."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from test_browser import REPLY_MS, launch, open_chat, playwright, speech_wav  # noqa: F401  (fixtures)


@pytest.fixture(scope="module")
def base_url(tools_server_url: str) -> str:
    return tools_server_url


def ask_aloud(launch, base_url: str, wav: Path):  # noqa: F811
    tab = open_chat(launch(wav), base_url)
    tab.page.get_by_role("button", name="Start talking").click()
    tab.wait("window.voicechat.stats.toolCalls.length >= 1", REPLY_MS)
    return tab


def test_what_time_is_it_is_answered_from_the_page_clock(launch, base_url, tmp_path):  # noqa: F811
    tab = ask_aloud(launch, base_url, speech_wav(tmp_path / "time.wav", "What time is it?"))
    call = tab.hook("window.voicechat.stats.toolCalls")[0]
    assert call["name"] == "get_current_time"
    clock = json.loads(call["output"])  # the page's own, as a person says it
    assert re.fullmatch(r"\w+day, [A-Z][a-z]+ \d{1,2}, \d{4}", clock["date"]), clock
    assert re.fullmatch(r"(1[0-2]|[1-9]):[0-5]\d [AP]M", clock["time"]), clock
    tab.wait_replies(2)  # the call, then the answer from its output
    answer = tab.messages("assistant")[-1]["text"]
    assert clock["time"].split(" ")[0] in answer, f"{answer!r} does not tell the page's time {clock}"
    assert "tool_call" not in answer and "{" not in answer
    tab.assert_clean()


def test_set_a_timer_shows_a_timer_that_fires(launch, base_url, tmp_path):  # noqa: F811
    tab = ask_aloud(launch, base_url, speech_wav(tmp_path / "timer.wav", "Set a timer for ten seconds."))
    call = tab.hook("window.voicechat.stats.toolCalls")[0]
    assert call["name"] == "set_timer" and json.loads(call["arguments"])["seconds"] == 10, call
    timer = tab.hook("window.voicechat.timers")[0]
    assert timer["seconds"] == 10 and not timer["fired"]
    assert tab.page.locator("#timers .timer").count() == 1 and tab.page.locator("#timers").is_visible()
    tab.wait("window.voicechat.timers[0].fired", 20_000)
    assert tab.page.locator("#timers .timer.fired .timer-remaining").inner_text() == "done"
    tab.wait_replies(2)
    tab.screenshot("chat-timer")
    tab.assert_clean()


def test_the_quality_bench_declares_the_tools_the_page_declares(launch, base_url):  # noqa: F811
    """``bench quality --tools page`` measures the page's prompt: its tools are the page module's own, to the field."""
    from app.bench.quality import PAGE_TOOLS

    tab = open_chat(launch(None), base_url)
    assert tab.page.evaluate("async () => (await import('/static/js/page-tools.js')).PAGE_TOOLS") == PAGE_TOOLS
    tab.assert_clean()
