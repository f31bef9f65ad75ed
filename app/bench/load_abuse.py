"""``bench load --abuse``: one client sends the largest prompt the server accepts, and /healthz is timed.

A prompt is built for every reply, so a client whose instructions sit at ``max_text_chars`` and whose
conversation holds as many maximal messages as the history quota allows makes the server do the most
prompt work per reply (and a resume replays all of it). None of that may stall the event loop: a
thread asks ``GET /healthz`` every 50 ms throughout, and its latency is what every other session's
events wait behind.
"""

from __future__ import annotations

import asyncio
import threading
import time
from dataclasses import dataclass, field

from app.bench.client import RealtimeClient, ServerProbe

HEALTHZ_EVERY_S = 0.05
REPLY_TIMEOUT_S = 120.0
REPLIES_PER_VISIT = 3  # then a resume, which replays the whole stored history
FILLER = "The committee reviewed every line of the long report and asked for a shorter summary by Friday. "
FALLBACK_MAX_MESSAGES = 1000  # when the history has no per-conversation quota
REPLY_HEADROOM = 64  # messages left under the quota for the replies' own (a full history fails them)
STORE_EVERY_S = 0.01  # 100 messages/s, half the default max_messages_per_s: the rate limit is not what is measured


def filler_text(chars: int, tag: str = "") -> str:
    """Plain sentences (what a tokenizer sees in real prompts), exactly ``chars`` long."""
    text = tag + FILLER * (chars // len(FILLER) + 1)
    return text[:chars]


class HealthzPoller:
    """Times ``GET /healthz`` every HEALTHZ_EVERY_S on a thread of its own (the benchmark's users do not
    delay it); a request that fails counts with the time it took to fail."""

    def __init__(self, probe: ServerProbe):
        self.probe = probe
        self.latencies_ms: list[float] = []
        self.failures = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._poll, name="healthz-poller", daemon=True)

    def __enter__(self) -> "HealthzPoller":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _poll(self) -> None:
        while not self._stop.is_set():
            sent = time.perf_counter()
            try:
                self.probe.get("/healthz")
            except OSError:
                self.failures += 1
            self.latencies_ms.append((time.perf_counter() - sent) * 1000)
            self._stop.wait(max(0.0, sent + HEALTHZ_EVERY_S - time.perf_counter()))


@dataclass
class AbuseResult:
    """What the abusive client managed to make the server hold and do."""

    messages_stored: int = 0
    instructions_chars: int = 0
    history_chars: int = 0
    visits: int = 0
    replayed_items: list[int] = field(default_factory=list)
    reply_statuses: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


async def _store(client: RealtimeClient, result: AbuseResult, role: str, max_chars: int) -> bool:
    """One message of ``max_chars``, acknowledged before the next and paced under the rate limit (a
    server with a lower one answers ``rate_limit_exceeded``: sent again a second later); False when
    the server refused it (the history quota)."""
    part = "input_text" if role == "user" else "output_text"
    text = filler_text(max_chars, f"{result.messages_stored}: ")
    while True:
        seen, sent = len(client.events), time.perf_counter()
        await client.send({"type": "conversation.item.create",
                           "item": {"type": "message", "role": role, "content": [{"type": part, "text": text}]}})  # fmt: skip
        answer = await client.wait_for(("conversation.item.done", "error"), after=seen, timeout=60)
        await asyncio.sleep(max(0.0, sent + STORE_EVERY_S - time.perf_counter()))
        if answer["type"] != "error" or answer["error"]["code"] != "rate_limit_exceeded":
            break
        await asyncio.sleep(1.0)
    if answer["type"] == "error":
        if answer["error"]["code"] != "history_quota_exceeded":
            result.errors.append(f"store: {answer['error']['code']}")
        return False
    result.messages_stored += 1
    result.history_chars += len(text)
    return True


async def _fill_history(client: RealtimeClient, result: AbuseResult, max_chars: int, max_messages: int, deadline: float) -> None:
    """User and assistant messages in pairs until ``max_messages`` are stored or the quota refuses one."""
    while result.messages_stored + 2 <= max_messages and time.perf_counter() < deadline:
        if not (await _store(client, result, "user", max_chars) and await _store(client, result, "assistant", max_chars)):
            return


async def abusive_client(url: str, probe: ServerProbe, max_chars: int, max_messages: int, deadline: float) -> AbuseResult:
    """Instructions at ``max_chars``, the history filled to its quota (less room for the replies), a
    resume that replays it, then turns of a maximal question and a short reply (the prompt is the
    load), and the conversation resumed again every REPLIES_PER_VISIT turns."""
    result = AbuseResult(instructions_chars=max_chars)
    session = await asyncio.to_thread(probe.session_credential)
    headers = {session["header"]: session["credential"]}
    max_messages = max(0, (max_messages or FALLBACK_MAX_MESSAGES) - REPLY_HEADROOM)
    while time.perf_counter() < deadline:
        try:
            async with RealtimeClient(url, headers=headers) as client:
                result.visits += 1
                await client.send({"type": "session.update", "session": {
                    "output_modalities": ["text"], "instructions": filler_text(max_chars)}})  # fmt: skip
                await client.wait_for("session.updated")
                result.replayed_items.append(sum(e["type"] == "conversation.item.done" for e in client.events))
                stored = result.messages_stored
                await _fill_history(client, result, max_chars, max_messages, deadline)
                if result.messages_stored - stored > 1:
                    continue  # back at once: the resume replays all of it
                for _ in range(REPLIES_PER_VISIT):
                    if time.perf_counter() >= deadline or not await _store(client, result, "user", max_chars):
                        break
                    seen = len(client.events)
                    await client.send({"type": "response.create", "response": {"max_output_tokens": 16}})
                    reply = await client.next_reply(after=seen, timeout=REPLY_TIMEOUT_S)
                    result.reply_statuses.append(str(reply.status))
        except Exception as error:  # reported, and the abuse goes on
            result.errors.append(f"{type(error).__name__}: {error}"[:160])
        await asyncio.sleep(1.0)
    return result
