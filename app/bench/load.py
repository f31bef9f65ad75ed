"""``voicechat bench load``: many simulated users for a bounded time; errors, latency and leaks.

Half the users speak (real speech streamed in real time, then they listen to the reply), half type.
In a share of the turns (``--interrupt-share``) the user asks for something long (``LONG_ASKS``) and
interrupts the reply, as people do: a voice user speaks over it (barge-in; then, as the page does, it
truncates the reply to the audio it played), a typed one sends ``response.cancel``. An interrupted
reply must end within ``STOP_TIMEOUT_S`` (else the session is stuck: an error) and the conversation
goes on; the time from the interruption to its ``response.done`` is reported (``barge_in_stop_*``,
``cancel_stop_*``; a reply that had ended first counts as ``*_late``).
Every user comes and goes: a visit of a few turns, a disconnect, a resume of the same conversation
(with the session credential from ``POST /api/sessions`` in the handshake's ``X-Voicechat-Session``
header; the JSON counts the resumes that got their history back), and so on until the time is up. A
reply the server cannot start in time ends with a ``server_busy`` error event: that is load shed as
designed, so it is counted apart from errors (``server_busy`` and its share of turns). ``/healthz`` is
timed every 50 ms throughout; ``--abuse`` runs the users twice, the second time beside one client that
sends the largest prompt and history the server accepts (app/bench/load_abuse.py), and reports both
runs side by side (``abuse_`` figures). Around the run the server's own numbers are read from ``/metrics`` and
``/api/dashboard``: resident memory (start, end, peak, growth over the second half: it must
plateau), open file descriptors, and once every user has left the engine requests and KV blocks
still held (``kv_leaked_blocks`` and ``engine_requests_left`` must be 0). Without ``--url`` the
command starts its own server (the real models) on a free port.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from app.bench.client import ReplyRecord, ServerProbe
from app.bench.load_abuse import AbuseResult, HealthzPoller, abusive_client
from app.bench.report import report
from app.config import Settings
from app.percentile import percentile

REPLY_TIMEOUT_S = 120.0
MAX_LISTEN_S = 6.0  # a voice user listens to at most this much of a reply
STOP_TIMEOUT_S = 10.0  # an interrupted reply ends within this, or the session is stuck
INTERRUPT_WITHIN_S = 0.5  # a user interrupts this long at most after the reply was created
LONG_ASKS = ("Tell me a long story about a dragon and a lighthouse.", "Describe a walk through a forest in detail.")
SETTLE_S = 15.0  # how long the server may take to release everything after the last user left
SAMPLE_EVERY_S = 5.0
BUSY = "server_busy"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--url", help="WebSocket URL of a running server (ws://HOST:PORT/ws); default: start one")
    parser.add_argument("--sessions", type=int, default=4, help="simulated users at once (half speak, half type)")
    parser.add_argument("--minutes", type=float, default=1.0, help="how long users keep coming back")
    parser.add_argument("--seed", type=int, default=0, help="seed of the users' timing and questions")
    parser.add_argument(
        "--abuse", action="store_true",
        help="run the users twice (--minutes each): alone, then beside a client with a maximal prompt and history; "
        "/healthz latency of both",
    )  # fmt: skip
    parser.add_argument("--interrupt-share", type=float, default=0.25,
                        help="share of turns in which the user interrupts the reply (a voice user speaks over it, a "
                        "typed one sends response.cancel), within 0.5 s of its start")  # fmt: skip


@dataclass
class Clips:
    """The voice users' speech: the questions, and the requests for something long that they interrupt."""

    questions: list[Any]
    long_asks: list[Any]


@dataclass
class UserResult:
    kind: str
    visits: int = 0
    turns: int = 0
    server_busy: int = 0
    resumes: int = 0
    resumes_with_history: int = 0
    resumed_items_missing: int = 0
    v2v_s: list[float] = field(default_factory=list)
    text_ttft_s: list[float] = field(default_factory=list)
    interrupts: int = 0
    interrupts_late: int = 0  # the reply had ended before the interruption reached it
    stop_s: list[float] = field(default_factory=list)  # interruption -> the reply's response.done, cancelled
    errors: list[str] = field(default_factory=list)


class ServerLoad(ServerProbe):
    """The server's own figures that show a leak: memory, descriptors, what is still held."""

    def process(self) -> dict[str, float]:
        """``rss_mb`` and ``open_fds`` of the server process (Prometheus process metrics)."""
        text = self.get("/metrics").decode()
        found = dict(re.findall(r"^(process_resident_memory_bytes|process_open_fds) (\S+)$", text, re.MULTILINE))
        return {"rss_mb": float(found["process_resident_memory_bytes"]) / 2**20, "open_fds": float(found["process_open_fds"])}

    def held(self) -> dict[str, int]:
        """Sessions, engine requests and KV blocks still held."""
        data = json.loads(self.get("/api/dashboard"))
        engine = data["engine"]
        queued = sum(v or 0 for v in engine["queue"].values())
        return {
            "sessions": data["sessions"]["active"],
            "requests": int((engine["running"] or 0) + queued),
            "kv_blocks": int(engine["kv_used_blocks"] or 0),
        }


def turn_outcome(kind: str, events: list[dict[str, Any]], reply: ReplyRecord, answered: bool) -> tuple[list[str], bool]:
    """The errors of one turn, and whether the server answered it ``server_busy`` (an error event with
    that code, the reply ``failed`` with it): load shed on purpose, not an error."""
    codes = [e["error"]["code"] for e in events if e["type"] == "error"]
    failure = ((reply.done or {}).get("status_details") or {}).get("error") or {}
    busy = BUSY in codes or failure.get("code") == BUSY
    errors = [f"{kind}: {code}" for code in codes if code != BUSY]
    if not busy and (reply.status not in ("completed", "incomplete") or not answered):
        errors.append(f"{kind}: reply {reply.status} with {len(reply.audio)} audio bytes, {len(reply.text)} text chars")
    return errors, busy


def _count_turn(result: UserResult, events: list[dict[str, Any]], reply: ReplyRecord, answered: bool) -> bool:
    """Records one turn's outcome; True when it was answered and can be timed."""
    errors, busy = turn_outcome(result.kind, events, reply, answered)
    result.turns += 1
    result.server_busy += busy
    result.errors += errors
    return not busy and not errors


def stored_item_ids(events: list[dict[str, Any]]) -> set[str]:
    """The conversation's items this connection saw stored (live or replayed on resume), less those it saw deleted
    (a reply interrupted before any of its words reached the user)."""
    done = {e["item"]["id"] for e in events if e["type"] == "conversation.item.done"}
    return done - {e["item_id"] for e in events if e["type"] == "conversation.item.deleted"}


def resume_outcome(known: set[str], expected_id: str, events: list[dict[str, Any]], session: dict[str, Any]) -> tuple[bool, int]:
    """Whether a resumed connection got its conversation back (the same session id, earlier items
    replayed), and how many of the items stored on earlier visits were not replayed."""
    missing = known - stored_item_ids(events)
    return session.get("id") == expected_id and len(missing) < len(known), len(missing)


async def _voice_turn(client: Any, clip: Any, result: UserResult) -> None:
    seen = len(client.events)
    speech_end = await client.stream_audio(clip, trailing_silence_s=0.8)
    reply = await client.next_reply(after=seen, timeout=REPLY_TIMEOUT_S)
    await _hear_answer(client, result, seen, reply, speech_end)


async def _hear_answer(client: Any, result: UserResult, seen: int, reply: ReplyRecord, speech_end: float) -> None:
    """A spoken turn's answer (its events from index ``seen``): counted, timed from the end of speech to its first
    audio, and listened to."""
    if _count_turn(result, client.events[seen:], reply, reply.first_audio_at is not None):
        result.v2v_s.append(reply.first_audio_at - speech_end)
        await client.hear_out(reply, MAX_LISTEN_S)


async def _text_turn(client: Any, question: str, result: UserResult, rng: random.Random) -> None:
    seen = len(client.events)
    sent = time.perf_counter()
    await client.say_text(question)
    reply = await client.next_reply(after=seen, timeout=REPLY_TIMEOUT_S)
    if not _count_turn(result, client.events[seen:], reply, reply.first_text_at is not None):
        return
    result.text_ttft_s.append(reply.first_text_at - sent)
    await asyncio.sleep(rng.uniform(1.0, 3.0))  # reading and typing


async def _interrupted(client: Any, reply: ReplyRecord, since: float, result: UserResult) -> None:
    """Waits for an interrupted ``reply`` to end (``since``: when the interruption began) and counts how it ended:
    cancelled (timed), or done before the interruption reached it (late)."""
    try:
        await client.wait_for("response.done", lambda e: e["response"]["id"] == reply.response_id, timeout=STOP_TIMEOUT_S)
    except TimeoutError:
        raise TimeoutError(f"an interrupted reply did not end within {STOP_TIMEOUT_S:g} s") from None
    result.interrupts += 1
    if reply.status == "cancelled":
        result.stop_s.append(reply.done_at - since)
    else:
        result.interrupts_late += 1


async def _voice_barge_in(client: Any, clip: Any, over: Any, result: UserResult, rng: random.Random) -> None:
    """A question, then another (``over``) spoken over the reply: the first reply stops, the second is answered."""
    from app.bench.speech_samples import speech_bounds

    seen = len(client.events)
    await client.stream_audio(clip, trailing_silence_s=0.8)
    created = await client.wait_for("response.created", after=seen, timeout=REPLY_TIMEOUT_S)
    first = client.replies[created["response"]["id"]]
    await asyncio.sleep(rng.uniform(0.0, INTERRUPT_WITHIN_S))
    barge = len(client.events)
    speech_start = time.perf_counter() + speech_bounds(over)[0]
    speaking = asyncio.create_task(client.stream_audio(over, trailing_silence_s=0.8))
    try:
        started = await client.wait_for("input_audio_buffer.speech_started", after=barge, timeout=STOP_TIMEOUT_S)
        await _truncate_heard(client, first, started["_t"])
        await _interrupted(client, first, speech_start, result)
    finally:
        speech_end = await speaking
    reply = await client.wait_for("response.done", lambda e: e["response"]["id"] != first.response_id, after=barge,
                                  timeout=REPLY_TIMEOUT_S)  # fmt: skip
    await _hear_answer(client, result, seen, client.replies[reply["response"]["id"]], speech_end)


async def _truncate_heard(client: Any, reply: ReplyRecord, at: float) -> None:
    """What the page does at a barge-in: the reply's message cut to the audio played by ``at`` (in real time from its
    first byte), ``conversation.item.truncate``, answered ``conversation.item.truncated`` (or an error)."""
    item = next((e["item"]["id"] for e in client.events if e["type"] == "response.output_item.added"
                 and e["response_id"] == reply.response_id and e["item"]["type"] == "message"), None)  # fmt: skip
    if item is None or reply.first_audio_at is None:
        return
    seen = len(client.events)
    await client.send({"type": "conversation.item.truncate", "item_id": item, "content_index": 0,
                       "audio_end_ms": int(min(client.audio_s(reply), at - reply.first_audio_at) * 1000)})
    await client.wait_for(("conversation.item.truncated", "error"), after=seen, timeout=STOP_TIMEOUT_S)


async def _text_cancel(client: Any, question: str, result: UserResult, rng: random.Random) -> None:
    """A typed question whose reply the user cancels; a cancel that comes after the reply ended is answered
    ``response_not_found``, which is no error here (nor is ``server_busy``, counted apart as elsewhere)."""
    seen = len(client.events)
    await client.say_text(question)
    created = await client.wait_for("response.created", after=seen, timeout=REPLY_TIMEOUT_S)
    reply = client.replies[created["response"]["id"]]
    await asyncio.sleep(rng.uniform(0.0, INTERRUPT_WITHIN_S))
    sent = time.perf_counter()
    cancel = len(client.events)
    await client.send({"type": "response.cancel"})
    await _interrupted(client, reply, sent, result)
    if reply.status != "cancelled":
        await client.wait_for("error", lambda e: e["error"]["code"] == "response_not_found", after=cancel,
                              timeout=STOP_TIMEOUT_S)  # fmt: skip
    result.turns += 1
    codes = [e["error"]["code"] for e in client.events[seen:] if e["type"] == "error"]
    result.server_busy += BUSY in codes
    result.errors += [f"text: {code}" for code in codes if code not in (BUSY, "response_not_found")]
    await asyncio.sleep(rng.uniform(1.0, 3.0))


async def _user(url: str, result: UserResult, clips: Clips, deadline: float, rng: random.Random,
                interrupt_share: float) -> None:  # fmt: skip
    from app.bench.client import RealtimeClient
    from app.bench.voice import TYPED

    await asyncio.sleep(rng.uniform(0.0, 2.0))
    known: set[str] = set()  # items stored on earlier visits: a resume must replay them
    session: dict[str, str] | None = None
    while time.perf_counter() < deadline:
        try:
            session = session or await asyncio.to_thread(ServerProbe.for_ws_url(url).session_credential)
            async with RealtimeClient(url, headers={session["header"]: session["credential"]}) as client:
                result.visits += 1
                # session.updated comes after a resumed conversation's replay: a visit the deadline ends before its
                # first turn still counts its resume only once the replay is in
                patch = {"output_modalities": ["text"]} if result.kind == "text" else {}
                await client.send({"type": "session.update", "session": patch})
                await client.wait_for("session.updated")
                for _ in range(rng.randint(2, 4)):
                    if time.perf_counter() >= deadline:
                        break
                    interrupts = rng.random() < interrupt_share
                    if result.kind == "voice" and interrupts:
                        await _voice_barge_in(client, rng.choice(clips.long_asks), rng.choice(clips.questions), result, rng)
                    elif result.kind == "voice":
                        await _voice_turn(client, rng.choice(clips.questions), result)
                    elif interrupts:
                        await _text_cancel(client, rng.choice(LONG_ASKS), result, rng)
                    else:
                        await _text_turn(client, rng.choice(TYPED), result, rng)
                if known:
                    back, missing = resume_outcome(known, session["id"], client.events, client.session)
                    result.resumes += 1
                    result.resumes_with_history += back
                    result.resumed_items_missing += missing
                known |= stored_item_ids(client.events)
        except Exception as error:  # a benchmark reports failures; it does not stop at the first
            result.errors.append(f"{result.kind}: {type(error).__name__}: {error}")
            await asyncio.sleep(1.0)


async def _sample_process(probe: ServerLoad, samples: list[tuple[float, dict[str, float]]], stop: asyncio.Event) -> None:
    while not stop.is_set():
        samples.append((time.perf_counter(), await asyncio.to_thread(probe.process)))
        try:
            await asyncio.wait_for(stop.wait(), SAMPLE_EVERY_S)
        except asyncio.TimeoutError:
            pass


async def _settle(probe: ServerLoad) -> dict[str, int]:
    """What the server still holds once it has had SETTLE_S to release the users' leftovers."""
    deadline = time.perf_counter() + SETTLE_S
    while True:
        held = await asyncio.to_thread(probe.held)
        if not any(held.values()) or time.perf_counter() > deadline:
            return held
        await asyncio.sleep(0.2)


@dataclass
class Phase:
    """One run of the users (beside the abusive client with ``--abuse``) and /healthz timed meanwhile."""

    results: list[UserResult]
    healthz_ms: list[float]
    healthz_failures: int
    abuse: AbuseResult | None = None


async def _phase(url: str, args: argparse.Namespace, clips: Clips, abuse: tuple[int, int] | None) -> Phase:
    """The users for ``--minutes`` (the same seed each phase, so phases differ only by the abuse);
    ``abuse`` is ``(max_text_chars, history_session_max_messages)`` of the server."""
    probe = ServerProbe.for_ws_url(url)
    rng = random.Random(args.seed)
    results = [UserResult("voice" if i % 2 == 0 else "text") for i in range(args.sessions)]
    deadline = time.perf_counter() + args.minutes * 60
    with HealthzPoller(probe) as healthz:
        users = [_user(url, r, clips, deadline, random.Random(rng.random()), args.interrupt_share) for r in results]
        abuser = [abusive_client(url, probe, *abuse, deadline)] if abuse else []
        outcomes = await asyncio.gather(*users, *abuser)
    return Phase(results, healthz.latencies_ms, healthz.failures, outcomes[-1] if abuse else None)


async def _run(url: str, args: argparse.Namespace, settings: Settings) -> dict[str, Any]:
    from app.bench.speech_samples import espeak_speech
    from app.bench.voice import QUESTIONS

    clips = Clips([espeak_speech(text) for text in QUESTIONS], [espeak_speech(text) for text in LONG_ASKS])
    probe = ServerLoad.for_ws_url(url)
    start = await asyncio.to_thread(probe.process)
    samples: list[tuple[float, dict[str, float]]] = []
    stop = asyncio.Event()
    sampler = asyncio.create_task(_sample_process(probe, samples, stop))
    began = time.perf_counter()
    phases = [await _phase(url, args, clips, None)]
    if args.abuse:
        phases.append(await _phase(url, args, clips, (settings.max_text_chars, settings.history_session_max_messages)))
    stop.set()
    await sampler
    held = await _settle(probe)
    end = await asyncio.to_thread(probe.process)
    middle = began + (time.perf_counter() - began) / 2
    second_half = [s["rss_mb"] for t, s in samples if t >= middle] or [end["rss_mb"]]
    return {
        "phases": phases,
        "held": held,
        "start": start,
        "end": end,
        "rss_peak_mb": max([s["rss_mb"] for _, s in samples] + [end["rss_mb"]]),
        "open_fds_peak": max([s["open_fds"] for _, s in samples] + [end["open_fds"]]),
        "rss_second_half_growth_mb": end["rss_mb"] - second_half[0],
        "users_s": time.perf_counter() - began,
    }


def summarize_users(phase: Phase) -> dict[str, Any]:
    """The users' figures of one phase: turns, errors and ``server_busy`` apart, latency, resumes, /healthz."""
    results = phase.results
    v2v = [v for r in results for v in r.v2v_s]
    ttft = [v for r in results for v in r.text_ttft_s]
    voice = [r for r in results if r.kind == "voice"]
    typed = [r for r in results if r.kind == "text"]
    barge_stops = [v for r in voice for v in r.stop_s]
    cancel_stops = [v for r in typed for v in r.stop_s]
    turns = sum(r.turns for r in results)
    busy = sum(r.server_busy for r in results)
    return {
        "visits": sum(r.visits for r in results),
        "resumes": sum(r.resumes for r in results),
        "resumes_with_history": sum(r.resumes_with_history for r in results),
        "resumed_items_missing": sum(r.resumed_items_missing for r in results),
        "turns": turns,
        "voice_turns": len(v2v),
        "text_turns": len(ttft),
        "errors": sum(len(r.errors) for r in results),
        "error_kinds": "; ".join(f"{n}x {kind}" for kind, n in Counter(e[:120] for r in results for e in r.errors).most_common()),
        "server_busy": busy,
        "server_busy_share": round(busy / turns, 4) if turns else 0.0,
        "v2v_p50_s": percentile(v2v, 50, 3),
        "v2v_p95_s": percentile(v2v, 95, 3),
        "text_ttft_p50_s": percentile(ttft, 50, 3),
        "text_ttft_p95_s": percentile(ttft, 95, 3),
        "barge_ins": sum(r.interrupts for r in voice),
        "barge_ins_late": sum(r.interrupts_late for r in voice),
        "barge_in_stop_p50_s": percentile(barge_stops, 50, 3),
        "barge_in_stop_p95_s": percentile(barge_stops, 95, 3),
        "cancels": sum(r.interrupts for r in typed),
        "cancels_late": sum(r.interrupts_late for r in typed),
        "cancel_stop_p50_s": percentile(cancel_stops, 50, 3),
        "cancel_stop_p95_s": percentile(cancel_stops, 95, 3),
        "healthz_polls": len(phase.healthz_ms),
        "healthz_failures": phase.healthz_failures,
        "healthz_p50_ms": percentile(phase.healthz_ms, 50, 3),
        "healthz_p99_ms": percentile(phase.healthz_ms, 99, 3),
        "healthz_max_ms": round(max(phase.healthz_ms), 3) if phase.healthz_ms else None,
    }


def summarize_abuse(abuse: AbuseResult) -> dict[str, Any]:
    """What the abusive client made the server hold and do."""
    return {
        "abuse_instructions_chars": abuse.instructions_chars,
        "abuse_messages_stored": abuse.messages_stored,
        "abuse_history_chars": abuse.history_chars,
        "abuse_visits": abuse.visits,
        "abuse_items_replayed_max": max(abuse.replayed_items, default=0),
        "abuse_replies": "; ".join(f"{n}x {status}" for status, n in Counter(abuse.reply_statuses).most_common()),
        "abuse_client_errors": "; ".join(abuse.errors[:5]),
    }


def summarize(run: dict[str, Any], args: argparse.Namespace) -> dict[str, Any]:
    """The first phase's users, then (``--abuse``) the second's as ``abuse_`` figures; leaks over the whole run."""
    phases: list[Phase] = run["phases"]
    summary: dict[str, Any] = {
        "sessions": args.sessions,
        "minutes": args.minutes,
        "voice_users": sum(r.kind == "voice" for r in phases[0].results),
        "text_users": sum(r.kind == "text" for r in phases[0].results),
        **summarize_users(phases[0]),
    }
    for phase in phases[1:]:
        summary.update({f"abuse_{key}": value for key, value in summarize_users(phase).items()})
        summary.update(summarize_abuse(phase.abuse or AbuseResult()))
    summary.update({
        "rss_start_mb": round(run["start"]["rss_mb"], 1),
        "rss_end_mb": round(run["end"]["rss_mb"], 1),
        "rss_peak_mb": round(run["rss_peak_mb"], 1),
        "rss_growth_mb": round(run["end"]["rss_mb"] - run["start"]["rss_mb"], 1),
        "rss_second_half_growth_mb": round(run["rss_second_half_growth_mb"], 1),
        "open_fds_start": int(run["start"]["open_fds"]),
        "open_fds_end": int(run["end"]["open_fds"]),
        "open_fds_peak": int(run["open_fds_peak"]),
        "sessions_left": run["held"]["sessions"],
        "engine_requests_left": run["held"]["requests"],
        "kv_leaked_blocks": run["held"]["kv_blocks"],
        "users_wall_s": round(run["users_s"], 1),
    })  # fmt: skip
    return summary


def run(args: argparse.Namespace, settings: Settings) -> dict[str, Any]:
    if args.url:
        outcome = asyncio.run(_run(args.url, args, settings))
        models = ServerProbe.for_ws_url(args.url).models()
        server = args.url.split("?", 1)[0]
    else:
        from app.models.prepare import prepare_models
        from app.web.server import ServerThread, create_app

        prepared = prepare_models(settings, progress=True)
        own = settings.model_copy(update={"max_sessions": max(settings.max_sessions, args.sessions * 2)})
        with ServerThread(create_app(own, prepared=prepared)) as base_url:
            url = base_url.replace("http://", "ws://") + "/ws"
            outcome = asyncio.run(_run(url, args, settings))
            models = ServerProbe.for_ws_url(url).models()
        server = "own (127.0.0.1, free port)"
    summary = summarize(outcome, args)
    for phase in outcome["phases"]:
        for index, result in enumerate(phase.results):
            for error in result.errors[:5]:
                print(f"user {index} ({result.kind}): {error}")
    summary.update({"server": server, **models})  # the measured server's models, not this client's settings
    title = f"load: {args.sessions} users (voice and typed) for {args.minutes:g} min; errors and leaks must be 0"
    if args.abuse:
        title += "; then again beside a client with a maximal prompt and history (abuse_)"
    return report(title, summary, args.json_path)
