"""``voicechat bench load``: many simulated users for a bounded time; errors, latency and leaks.

Half the users speak (real speech streamed in real time, then they listen to the reply), half type.
Every user comes and goes: a visit of a few turns, a disconnect, a resumed session, and so on until
the time is up. Around the run the server's own numbers are read from ``/metrics`` and
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
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from app.bench.client import ServerProbe
from app.bench.report import report
from app.config import Settings

REPLY_TIMEOUT_S = 120.0
MAX_LISTEN_S = 6.0  # a voice user listens to at most this much of a reply
SETTLE_S = 15.0  # how long the server may take to release everything after the last user left
SAMPLE_EVERY_S = 5.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--url", help="WebSocket URL of a running server (ws://HOST:PORT/ws); default: start one")
    parser.add_argument("--sessions", type=int, default=4, help="simulated users at once (half speak, half type)")
    parser.add_argument("--minutes", type=float, default=1.0, help="how long users keep coming back")
    parser.add_argument("--seed", type=int, default=0, help="seed of the users' timing and questions")


@dataclass
class UserResult:
    kind: str
    visits: int = 0
    v2v_s: list[float] = field(default_factory=list)
    text_ttft_s: list[float] = field(default_factory=list)
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


def _with_session(url: str, session_id: str | None) -> str:
    if session_id is None:
        return url
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query) if k != "session"] + [("session", session_id)]
    return urlunsplit(parts._replace(query=urlencode(query)))


async def _voice_turn(client: Any, clip: Any, result: UserResult) -> None:
    seen = len(client.events)
    speech_end = await client.stream_audio(clip, trailing_silence_s=0.8)
    reply = await client.next_reply(after=seen, timeout=REPLY_TIMEOUT_S)
    result.errors += [f"voice: {e['error']['code']}" for e in client.events[seen:] if e["type"] == "error"]
    if reply.status not in ("completed", "incomplete") or reply.first_audio_at is None:
        result.errors.append(f"voice: reply {reply.status} with {len(reply.audio)} audio bytes")
        return
    result.v2v_s.append(reply.first_audio_at - speech_end)
    heard_s = len(reply.audio) / 2 / client.session["audio"]["output"]["format"]["rate"]
    await asyncio.sleep(max(0.0, reply.first_audio_at + min(heard_s, MAX_LISTEN_S) - time.perf_counter()) + 0.3)


async def _text_turn(client: Any, question: str, result: UserResult, rng: random.Random) -> None:
    seen = len(client.events)
    sent = time.perf_counter()
    await client.say_text(question)
    reply = await client.next_reply(after=seen, timeout=REPLY_TIMEOUT_S)
    result.errors += [f"text: {e['error']['code']}" for e in client.events[seen:] if e["type"] == "error"]
    if reply.status not in ("completed", "incomplete") or reply.first_text_at is None:
        result.errors.append(f"text: reply {reply.status}")
        return
    result.text_ttft_s.append(reply.first_text_at - sent)
    await asyncio.sleep(rng.uniform(1.0, 3.0))  # reading and typing


async def _user(url: str, result: UserResult, clips: list[Any], deadline: float, rng: random.Random) -> None:
    from app.bench.client import RealtimeClient
    from app.bench.voice import TYPED

    session_id: str | None = None
    await asyncio.sleep(rng.uniform(0.0, 2.0))
    while time.perf_counter() < deadline:
        try:
            async with RealtimeClient(_with_session(url, session_id)) as client:
                result.visits += 1
                session_id = client.session["id"]
                if result.kind == "text":
                    await client.send({"type": "session.update", "session": {"output_modalities": ["text"]}})
                    await client.wait_for("session.updated")
                for _ in range(rng.randint(2, 4)):
                    if time.perf_counter() >= deadline:
                        break
                    if result.kind == "voice":
                        await _voice_turn(client, rng.choice(clips), result)
                    else:
                        await _text_turn(client, rng.choice(TYPED), result, rng)
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


async def _run(url: str, args: argparse.Namespace) -> dict[str, Any]:
    from app.bench.speech_samples import espeak_speech
    from app.bench.voice import QUESTIONS

    clips = [espeak_speech(text) for text in QUESTIONS]
    probe = ServerLoad.for_ws_url(url)
    rng = random.Random(args.seed)
    results = [UserResult("voice" if i % 2 == 0 else "text") for i in range(args.sessions)]
    start = await asyncio.to_thread(probe.process)
    samples: list[tuple[float, dict[str, float]]] = []
    stop = asyncio.Event()
    sampler = asyncio.create_task(_sample_process(probe, samples, stop))
    began = time.perf_counter()
    deadline = began + args.minutes * 60
    users = [_user(url, r, clips, deadline, random.Random(rng.random())) for r in results]
    await asyncio.gather(*users)
    stop.set()
    await sampler
    held = await _settle(probe)
    end = await asyncio.to_thread(probe.process)
    middle = began + (time.perf_counter() - began) / 2
    second_half = [s["rss_mb"] for t, s in samples if t >= middle] or [end["rss_mb"]]
    return {
        "results": results,
        "held": held,
        "start": start,
        "end": end,
        "rss_peak_mb": max([s["rss_mb"] for _, s in samples] + [end["rss_mb"]]),
        "rss_second_half_growth_mb": end["rss_mb"] - second_half[0],
        "users_s": time.perf_counter() - began,
    }


def _p(values: list[float], q: float) -> float | None:
    import numpy as np

    return round(float(np.percentile(values, q)), 3) if values else None


def summarize(run: dict[str, Any], args: argparse.Namespace) -> dict[str, Any]:
    results: list[UserResult] = run["results"]
    v2v = [v for r in results for v in r.v2v_s]
    ttft = [v for r in results for v in r.text_ttft_s]
    return {
        "sessions": args.sessions,
        "minutes": args.minutes,
        "voice_users": sum(r.kind == "voice" for r in results),
        "text_users": sum(r.kind == "text" for r in results),
        "visits": sum(r.visits for r in results),
        "voice_turns": len(v2v),
        "text_turns": len(ttft),
        "errors": sum(len(r.errors) for r in results),
        "error_kinds": "; ".join(f"{n}x {kind}" for kind, n in Counter(e[:120] for r in results for e in r.errors).most_common()),
        "v2v_p50_s": _p(v2v, 50),
        "v2v_p95_s": _p(v2v, 95),
        "text_ttft_p50_s": _p(ttft, 50),
        "text_ttft_p95_s": _p(ttft, 95),
        "rss_start_mb": round(run["start"]["rss_mb"], 1),
        "rss_end_mb": round(run["end"]["rss_mb"], 1),
        "rss_peak_mb": round(run["rss_peak_mb"], 1),
        "rss_growth_mb": round(run["end"]["rss_mb"] - run["start"]["rss_mb"], 1),
        "rss_second_half_growth_mb": round(run["rss_second_half_growth_mb"], 1),
        "open_fds_start": int(run["start"]["open_fds"]),
        "open_fds_end": int(run["end"]["open_fds"]),
        "sessions_left": run["held"]["sessions"],
        "engine_requests_left": run["held"]["requests"],
        "kv_leaked_blocks": run["held"]["kv_blocks"],
        "users_wall_s": round(run["users_s"], 1),
    }


def run(args: argparse.Namespace, settings: Settings) -> dict[str, Any]:
    if args.url:
        outcome = asyncio.run(_run(args.url, args))
        models = ServerProbe.for_ws_url(args.url).models()
        server = args.url.split("?", 1)[0]
    else:
        from app.models.prepare import prepare_models
        from app.web.server import ServerThread, create_app

        prepared = prepare_models(settings, progress=True)
        own = settings.model_copy(update={"max_sessions": max(settings.max_sessions, args.sessions * 2)})
        with ServerThread(create_app(own, prepared=prepared)) as base_url:
            url = base_url.replace("http://", "ws://") + "/ws"
            outcome = asyncio.run(_run(url, args))
            models = ServerProbe.for_ws_url(url).models()
        server = "own (127.0.0.1, free port)"
    summary = summarize(outcome, args)
    for index, result in enumerate(outcome["results"]):
        for error in result.errors[:5]:
            print(f"user {index} ({result.kind}): {error}")
    summary.update({"server": server, **models})  # the measured server's models, not this client's settings
    title = f"load: {args.sessions} users (voice and typed) for {args.minutes:g} min; errors and leaks must be 0"
    return report(title, summary, args.json_path)
