"""The chat page and the dashboard in headless Chromium, against the real server and the real models.

Chromium's fake microphone plays a wav synthesised here with espeak-ng. The page keeps a test
hook (``window.voicechat``: frames sent, samples scheduled and played, messages, events) up to
date, so every wait below is on real progress, never a sleep. Screenshots go to
``artifacts/browser/``.
"""

from __future__ import annotations

import base64
import re
import shutil
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, sync_playwright

from app.audio import resample, write_wav
from app.bench.speech_samples import espeak_speech
from app.config import Settings
from app.web.history import HistoryStore
from app.web.server import ServerThread, create_app

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "artifacts" / "browser"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--use-fake-ui-for-media-stream",
    "--use-fake-device-for-media-stream",
    "--autoplay-policy=no-user-gesture-required",
]
REPLY_MS = 120_000  # one spoken turn end to end on a loaded CPU, with generous headroom


# ---------------------------------------------------------------------- server and browser


@pytest.fixture(scope="module")
def base_url(settings: Settings, prepared) -> Iterator[str]:
    """The real app (real models, real SQLite) served by uvicorn on a free port in a thread."""
    with ServerThread(create_app(settings, prepared=prepared)) as url:
        yield url


@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"the browser tests need Chromium at {CHROMIUM}: apt-get install chromium (never skipped)")
    with sync_playwright() as instance:
        yield instance


@pytest.fixture
def launch(playwright: Playwright) -> Iterator[Callable[[Path | None], Browser]]:
    """Starts Chromium whose fake microphone plays ``wav`` once (then silence); closed after the test."""
    browsers: list[Browser] = []

    def start(wav: Path | None = None) -> Browser:
        args = list(CHROMIUM_ARGS)
        if wav is not None:
            assert wav.is_file(), wav  # a missing file would silently give a silent microphone
            args.append(f"--use-file-for-fake-audio-capture={wav}%noloop")
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=args)
        browsers.append(browser)
        return browser

    yield start
    for browser in browsers:
        browser.close()


# ---------------------------------------------------------------------- speech


def speech_wav(path: Path, text: str, *, lead_s: float = 0.6, tail_s: float = 1.0) -> Path:
    """``text`` spoken by espeak-ng, padded with silence (capture loses its first ~170 ms), as a 48 kHz wav."""
    speech = espeak_speech(text)
    padded = np.concatenate([np.zeros(int(lead_s * 16000)), speech, np.zeros(int(tail_s * 16000))])
    write_wav(path, resample(padded.astype(np.float32), 16000, 48000), 48000)
    return path


@pytest.fixture(scope="module")
def question_wav(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return speech_wav(tmp_path_factory.mktemp("speech") / "question.wav", "What is the capital of France?")


@pytest.fixture(scope="module")
def story_wav(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return speech_wav(tmp_path_factory.mktemp("speech") / "story.wav", "Please tell me a long story about a brave dragon.")


@pytest.fixture(scope="module")
def long_wav(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return speech_wav(
        tmp_path_factory.mktemp("speech") / "long.wav",
        "I would like to hear about the history of the city of Paris, the river that runs through it,"
        " and the famous iron tower that was built for the world fair a long time ago.",
    )


# ---------------------------------------------------------------------- the page


@dataclass
class ChatTab:
    """One chat page, with the errors it logged."""

    page: Page
    errors: list[str] = field(default_factory=list)

    def hook(self, expression: str):
        return self.page.evaluate(f"() => {expression}")

    def wait(self, expression: str, timeout_ms: float = 30_000) -> None:
        self.page.wait_for_function(f"() => {expression}", timeout=timeout_ms, polling=100)

    def messages(self, role: str | None = None) -> list[dict]:
        return [m for m in self.hook("window.voicechat.messages") if role is None or m["role"] == role]

    def send_text(self, text: str) -> None:
        self.page.get_by_role("textbox", name="Message").fill(text)
        self.page.get_by_role("textbox", name="Message").press("Enter")

    def wait_replies(self, count: int, timeout_ms: float = REPLY_MS) -> None:
        self.wait(f"window.voicechat.stats.responsesDone >= {count}", timeout_ms)

    def screenshot(self, name: str) -> Path:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / f"{name}.png"
        self.page.screenshot(path=str(path))
        return path

    def assert_clean(self) -> None:
        assert not self.errors, f"the page logged errors: {self.errors}"


def open_chat(target: Browser | BrowserContext, base_url: str) -> ChatTab:
    page = target.new_page()
    tab = ChatTab(page)
    page.on("pageerror", lambda error: tab.errors.append(f"pageerror: {error}"))
    page.on("console", lambda message: message.type == "error" and tab.errors.append(message.text))
    response = page.goto(f"{base_url}/")
    policy = response.headers.get("content-security-policy", "")
    assert "default-src 'self'" in policy, "the page must run under a strict CSP (violations are page errors)"
    tab.wait("window.voicechat && window.voicechat.connected && window.voicechat.sessionId !== null")
    return tab


def stored_text(settings: Settings, session_id: str, item_id: str) -> str:
    store = HistoryStore(Path(settings.data_dir) / "history.sqlite3")
    try:
        texts = {m.item_id: m.text for m in store.load_sync(session_id)}
    finally:
        store.close()
    assert item_id in texts, f"{item_id} is not in the stored history of {session_id}: {texts}"
    return texts[item_id]


# ---------------------------------------------------------------------- tests

CAPTURE_OFFLINE = """async ([rate, samples]) => {
  const bytes = Uint8Array.from(atob(samples), (c) => c.charCodeAt(0));
  const input = new Float32Array(bytes.buffer);
  const context = new OfflineAudioContext(1, input.length + rate, rate);
  await context.audioWorklet.addModule("/static/js/capture-worklet.js");
  const buffer = context.createBuffer(1, input.length, rate);
  buffer.copyToChannel(input, 0);
  const source = context.createBufferSource();
  source.buffer = buffer;
  const node = new AudioWorkletNode(context, "pcm16-capture", { numberOfInputs: 1, numberOfOutputs: 0 });
  const frames = [];
  node.port.onmessage = (event) => {
    if (event.data.type === "frame") frames.push(Array.from(new Int16Array(event.data.pcm)));
  };
  source.connect(node);
  source.start();
  await context.startRendering();
  await new Promise((resolve) => setTimeout(resolve, 200)); // the last frames are still in the port
  return frames;
}"""


@pytest.mark.parametrize("rate", [44100, 48000, 22050])
def test_capture_worklet_turns_any_context_rate_into_20ms_frames_of_16khz(launch, base_url, rate):
    speech = espeak_speech("What is the capital of France?")
    source = resample(speech, 16000, rate).astype(np.float32)
    page = launch().new_page()
    page.goto(f"{base_url}/")
    frames = page.evaluate(CAPTURE_OFFLINE, [rate, base64.b64encode(source.tobytes()).decode()])

    assert {len(frame) for frame in frames} == {320}
    captured = np.array([sample for frame in frames for sample in frame], dtype=np.float32) / 32768
    assert abs(len(captured) - len(speech)) <= 320
    n = min(len(captured), len(speech))
    a, b = captured[:n], speech[:n]
    correlation = float((a * b).sum() / np.sqrt((a * a).sum() * (b * b).sum()))
    assert correlation > 0.99, f"16 kHz capture differs from the source (correlation {correlation:.4f})"



def test_spoken_question_shows_transcript_streams_reply_and_plays_audio(launch, base_url, question_wav):
    tab = open_chat(launch(question_wav), base_url)
    tab.page.get_by_role("button", name="Start talking").click()
    tab.wait("window.voicechat.stats.framesSent > 25")
    assert tab.hook("window.voicechat.captureRate") > 0

    tab.wait("window.voicechat.messages.some((m) => m.role === 'user' && m.text.trim())", REPLY_MS)
    transcript = tab.messages("user")[0]["text"].lower()
    assert "capital" in transcript and "france" in transcript, transcript

    tab.wait_replies(1)
    reply = tab.messages("assistant")[0]["text"]
    assert len(reply.split()) >= 2, reply
    counts = tab.hook("window.voicechat.stats.eventCounts")
    assert counts.get("response.output_audio_transcript.delta", 0) >= 2, "the reply text did not stream"

    tab.wait("window.voicechat.samplesPlayed > 0 && !window.voicechat.playing", 60_000)  # the reply is complete
    audio = tab.hook(
        "(({ samplesScheduled, samplesPlayed, scheduledRms, playedRms }) =>"
        " ({ samplesScheduled, samplesPlayed, scheduledRms, playedRms }))(window.voicechat)"
    )  # one snapshot
    assert audio["samplesPlayed"] == audio["samplesScheduled"], audio
    assert audio["scheduledRms"] > 0.01 and audio["playedRms"] > 0.01, f"reply audio is silent: {audio}"
    assert {"listening", "thinking", "speaking"} <= set(tab.hook("window.voicechat.statesSeen"))
    latency = tab.hook("window.voicechat.stats.lastLatency")
    assert latency["heardMs"] >= latency["total_ms"] > 0 and latency["playbackMs"] >= 0, latency
    assert re.fullmatch(r"Last turn: \d+\.\d\d s", tab.page.locator("#latency").inner_text())
    tab.assert_clean()

    tab.screenshot("chat-spoken-turn")
    tab.page.set_viewport_size({"width": 390, "height": 800})
    tab.screenshot("chat-phone")


def test_partial_transcript_shows_while_the_user_is_still_speaking(launch, base_url, long_wav):
    tab = open_chat(launch(long_wav), base_url)
    tab.page.get_by_role("button", name="Start talking").click()
    tab.wait("window.voicechat.stats.partials.length >= 1", 60_000)
    partial = tab.hook("window.voicechat.stats.partials")[0].lower()
    assert any(word in partial for word in ("would", "like", "hear", "history", "paris")), partial
    tab.assert_clean()


def test_speaking_over_the_reply_stops_playback_and_truncates_the_stored_reply(launch, base_url, settings, story_wav):
    tab = open_chat(launch(story_wav), base_url)
    mic = tab.page.locator("#mic")
    mic.click()
    tab.wait("(window.voicechat.stats.eventCounts['input_audio_buffer.speech_stopped'] || 0) >= 1", REPLY_MS)
    mic.click()  # off while the reply comes; switching it on again replays the wav from its start
    tab.wait("window.voicechat.playing", REPLY_MS)
    mic.click()  # the user talks over the assistant

    tab.wait("window.voicechat.stats.flushes >= 1", 60_000)
    assert tab.hook("window.voicechat.playing") is False, "playback went on after the barge-in"
    truncation = tab.hook("window.voicechat.stats.truncations")[0]
    assert 0 < truncation["audioEndMs"] <= truncation["scheduledMs"], truncation
    item_id = truncation["itemId"]

    tab.wait(f"window.voicechat.messages.some((m) => m.itemId === '{item_id}' && m.interrupted)")
    kept = next(m["text"] for m in tab.messages() if m["itemId"] == item_id)
    unheard = tab.page.locator(f"[data-item-id='{item_id}'] .unheard")
    assert unheard.count() == 1 and unheard.inner_text().strip(), "the unheard rest of the reply is not shown"
    assert stored_text(settings, tab.hook("window.voicechat.sessionId"), item_id).strip() == kept.strip()
    tab.screenshot("chat-barge-in")
    tab.assert_clean()


def test_escape_stops_a_typed_reply_and_keeps_only_what_was_heard(launch, base_url, settings):
    tab = open_chat(launch(), base_url)
    tab.send_text("Please tell me a long story about a brave dragon.")
    tab.wait("window.voicechat.playing", REPLY_MS)
    tab.page.keyboard.press("Escape")
    tab.wait("window.voicechat.stats.flushes >= 1")
    assert tab.hook("window.voicechat.playing") is False
    truncation = tab.hook("window.voicechat.stats.truncations")[0]
    tab.wait(f"window.voicechat.messages.some((m) => m.itemId === '{truncation['itemId']}' && m.interrupted)")
    kept = next(m["text"] for m in tab.messages() if m["itemId"] == truncation["itemId"])
    assert stored_text(settings, tab.hook("window.voicechat.sessionId"), truncation["itemId"]).strip() == kept.strip()
    tab.assert_clean()


def test_escape_as_a_reply_starts_leaves_no_empty_bubble(launch, base_url):
    tab = open_chat(launch(), base_url)
    tab.send_text("Please tell me a long story about a brave dragon.")
    tab.wait("(window.voicechat.stats.eventCounts['response.created'] || 0) >= 1")
    tab.page.keyboard.press("Escape")
    tab.wait("(window.voicechat.stats.eventCounts['response.done'] || 0) >= 1")
    # a reply stopped before its first word leaves the conversation (conversation.item.deleted); one that had
    # words shows them (struck through where none was heard)
    tab.wait("window.voicechat.messages.every((m) => m.role !== 'assistant' || m.text.trim() || m.interrupted)")
    tab.assert_clean()


def test_typed_message_gets_a_reply_spoken_or_not_and_survives_a_reload(launch, base_url):
    tab = open_chat(launch(), base_url)
    tab.send_text("What is the capital of Italy?")
    tab.wait_replies(1)
    assert [m["text"] for m in tab.messages("user")] == ["What is the capital of Italy?"]
    assert tab.messages("assistant")[0]["text"].strip()
    tab.wait("window.voicechat.samplesScheduled > 0", 60_000)

    voice_out = tab.page.get_by_role("switch", name="Voice replies")
    voice_out.focus()
    tab.page.keyboard.press("Space")  # the controls work from the keyboard
    assert voice_out.is_checked() is False
    tab.wait("(window.voicechat.stats.eventCounts['session.updated'] || 0) >= 2")
    tab.wait("!window.voicechat.playing", 60_000)
    scheduled = tab.hook("window.voicechat.samplesScheduled")
    tab.send_text("And of Spain?")
    tab.wait_replies(2)
    assert tab.messages("assistant")[1]["text"].strip()
    assert tab.hook("window.voicechat.samplesScheduled") == scheduled, "voice replies are off but audio came"

    before = [(m["role"], m["text"]) for m in tab.messages()]
    session_id = tab.hook("window.voicechat.sessionId")
    tab.page.reload()
    tab.wait("window.voicechat && window.voicechat.connected")
    tab.wait(f"window.voicechat.messages.length >= {len(before)}")
    assert tab.hook("window.voicechat.sessionId") == session_id
    assert [(m["role"], m["text"]) for m in tab.messages()] == before
    assert tab.page.get_by_role("switch", name="Voice replies").is_checked() is False
    tab.assert_clean()


def test_the_speed_picker_sets_how_fast_replies_are_spoken_and_is_kept_over_a_reload(launch, base_url):
    tab = open_chat(launch(), base_url)
    tab.wait("window.voicechat.speed === 1")  # the server's default, shown
    picker = tab.page.get_by_label("Speed")
    picker.select_option("1.5")
    tab.wait("window.voicechat.speed === 1.5")  # the server's session.updated says so
    tab.send_text("What is the capital of Italy?")
    tab.wait_replies(1)
    tab.wait("window.voicechat.samplesScheduled > 0", 60_000)
    tab.page.reload()
    tab.wait("window.voicechat && window.voicechat.connected")
    tab.wait("window.voicechat.speed === 1.5")  # the choice is the page's, sent to the resumed session
    assert tab.page.get_by_label("Speed").input_value() == "1.5"
    tab.send_text("Can you speak slower?")  # asked in words: the server moves the speed a step and the page shows it
    tab.wait("window.voicechat.speed === 1.25", 60_000)
    assert tab.page.get_by_label("Speed").input_value() == "1.25"
    tab.wait_replies(1)  # counted since the reload
    assert tab.messages("assistant")[-1]["text"].strip()
    tab.assert_clean()


def test_markup_in_a_message_is_shown_as_text(launch, base_url):
    tab = open_chat(launch(), base_url)
    text = '<script>window.injected = 1</script><img src="x" onerror="window.injected = 2"> is <b>this</b> bold?'
    tab.send_text(text)
    tab.wait("window.voicechat.messages.some((m) => m.role === 'user')")
    assert tab.messages("user")[0]["text"] == text
    assert tab.page.locator("#log .message.user .body").inner_text() == text
    assert tab.page.locator("#log script, #log img, #log b").count() == 0
    assert tab.hook("window.injected") is None
    tab.wait_replies(1)
    tab.assert_clean()


def test_two_browser_sessions_at_once_each_get_their_own_answer(launch, base_url):
    browser = launch()
    alice = open_chat(browser.new_context(), base_url)
    bob = open_chat(browser.new_context(), base_url)
    assert alice.hook("window.voicechat.sessionId") != bob.hook("window.voicechat.sessionId")
    alice.send_text("My name is Alice. What is my name?")
    bob.send_text("My name is Bob. What is my name?")
    for tab, own, other in ((alice, "Alice", "Bob"), (bob, "Bob", "Alice")):
        tab.wait_replies(1)
        assert [m["text"] for m in tab.messages("user")] == [f"My name is {own}. What is my name?"]
        reply = tab.messages("assistant")[0]["text"]
        assert reply.strip() and other not in reply, reply
        tab.assert_clean()


def test_dashboard_shows_live_sessions_engine_and_latency(launch, base_url):
    browser = launch()
    chat = open_chat(browser, base_url)
    chat.send_text("Say hello.")
    chat.wait_replies(1)

    page = browser.new_page(viewport={"width": 1280, "height": 1100})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    response = page.goto(f"{base_url}/dashboard")
    assert "default-src 'self'" in response.headers.get("content-security-policy", "")
    page.wait_for_function("() => window.voicechatDashboard && window.voicechatDashboard.polls >= 3", timeout=30_000)
    shown = page.evaluate(
        """() => ({
            data: window.voicechatDashboard.last,
            plotted: window.voicechatDashboard.plotted,
            sessions: document.getElementById("m-sessions").textContent,
            batch: document.getElementById("m-batch").textContent,
            kv: document.getElementById("m-kv").textContent,
            rows: [...document.querySelectorAll("#sessions tbody td:first-child")].map((td) => td.textContent),
        })"""
    )  # one snapshot: the page re-renders every second
    data = shown["data"]
    assert data["sessions"]["active"] >= 1 and shown["sessions"] == str(data["sessions"]["active"])
    assert chat.hook("window.voicechat.sessionId")[:8] in shown["rows"]
    assert data["engine"]["batch_size"] is not None and shown["batch"] == str(data["engine"]["batch_size"])
    assert data["engine"]["kv_use"] is not None
    assert shown["kv"].endswith("%") and abs(float(shown["kv"][:-1]) - data["engine"]["kv_use"] * 100) <= 0.051
    assert data["latency"]["stages"]["llm_first_token_ms"]["n"] >= 1
    assert shown["plotted"]["engine"] > 0 and shown["plotted"]["tps"] > 0 and shown["plotted"]["kv"] > 0
    assert shown["plotted"]["stages"] > 0, "no latency percentiles on the chart"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "dashboard.png"), full_page=True)
    assert not errors, errors
    chat.assert_clean()


def test_an_idle_tab_is_closed_and_reconnects_only_when_the_user_comes_back(launch, settings, prepared):
    idle = settings.model_copy(update={"idle_timeout_s": 2.0})
    with ServerThread(create_app(idle, prepared=prepared)) as url:
        tab = open_chat(launch(), url)
        session_id = tab.hook("window.voicechat.sessionId")
        tab.wait("!window.voicechat.connected", timeout_ms=20_000)
        assert "press a key or click to reconnect" in tab.page.locator("#connection-label").inner_text()
        time.sleep(2.0)  # past the first automatic retries (0.5 s, 1 s): none may happen
        assert tab.hook("window.voicechat.connected") is False
        tab.page.keyboard.press("Shift")
        tab.wait(f"window.voicechat.connected && window.voicechat.sessionId === '{session_id}'")
        tab.assert_clean()


def test_a_full_server_says_so_and_the_tab_gets_in_when_a_place_frees(launch, settings, prepared):
    single = settings.model_copy(update={"max_sessions": 1})
    with ServerThread(create_app(single, prepared=prepared)) as url:
        browser = launch()
        first = open_chat(browser.new_context(), url)
        second_page = browser.new_context().new_page()
        second_page.goto(f"{url}/")
        second_page.wait_for_function(
            "() => document.querySelector('#connection-label').textContent === 'Server full'", timeout=20_000
        )
        assert second_page.evaluate("() => window.voicechat.connected") is False
        first.page.close()
        second_page.wait_for_function("() => window.voicechat.connected", timeout=30_000)
        first.assert_clean()
