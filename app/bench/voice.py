"""``voicechat bench voice``: simulated voice users over WebSocket, measured where the user hears it.

Each user streams real speech in real time (20 ms frames), waits for the reply, listens to it, and
asks again. End of speech -> first reply audio byte is measured on the client (``v2v``), next to the
server's own per-stage breakdown from ``response.done``. A text phase then measures typed time to
first token. Without ``--url`` the command starts its own server (the real models) on a free port. With ``--tools page``
every session declares the page's two tools, as the page does, and a reply that calls one is answered as the page
would; the turn's audio is the reply after it.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from app.bench.client import RealtimeClient, ServerProbe
from app.bench.quality import declare, page_tools, reply_heard
from app.bench.report import report
from app.config import Settings
from app.percentile import percentile

QUESTIONS = (
    "What is the capital of France?",
    "How many legs does a spider have?",
    "What color is the sky on a clear day?",
    "Can you name a famous painter?",
    "What is the tallest mountain in the world?",
    "Why do leaves fall in autumn?",
)
TYPED = ("What is the capital of Italy?", "Name a large animal.", "What is two plus two?", "Say hello.")
STAGES = ("endpoint_ms", "asr_ms", "llm_first_token_ms", "first_clause_ms", "tts_first_chunk_ms", "send_ms", "total_ms")
MAX_LISTEN_S = 8.0  # a user listens to at most this much of a reply before speaking again


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--url", help="WebSocket URL of a running server (ws://HOST:PORT/ws); default: start one")
    parser.add_argument("--users", type=int, default=1, help="simulated users talking at once")
    parser.add_argument("--turns", type=int, default=3, help="spoken questions per user")
    parser.add_argument("--text-turns", type=int, default=3, help="typed questions per user (text-only replies)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the users' start offsets and question order")
    parser.add_argument("--turn-detection", dest="turn_modes", choices=("default", "server_vad", "semantic_vad", "both"),
                        default="default",
                        help="how the server ends a spoken turn: 'default' as it does for a new session (its "
                        "turn_detection setting); 'both' alternates the two turn by turn in each voice session and "
                        "reports each apart, so the machine's load falls on both alike")  # fmt: skip
    parser.add_argument("--tools", choices=("none", "page"), default="none",
                        help="'page': every session declares the page's two tools (get_current_time, set_timer), as "
                        "the page does, and a call is answered as the page would")


MODES = ("server_vad", "semantic_vad")
TRAILING_SILENCE_S = {"server_vad": 0.8, "semantic_vad": 1.8}  # past the longest silence each may wait


@dataclass
class UserResult:
    v2v_s: list[float] = field(default_factory=list)
    modes: list[str] = field(default_factory=list)  # the turn detection of each of v2v_s
    turns: list[int] = field(default_factory=list)  # the user's turn (0: the first) of each of v2v_s
    server_latency: list[dict[str, Any]] = field(default_factory=list)
    text_ttft_s: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def _speech() -> list[np.ndarray]:
    from app.bench.speech_samples import espeak_speech

    return [espeak_speech(text) for text in QUESTIONS]


async def _voice_user(url: str, clips: list[np.ndarray], turns: int, offset_s: float, modes: list[str],
                      tools: list[dict], result: UserResult) -> None:  # fmt: skip
    await asyncio.sleep(offset_s)
    async with RealtimeClient(url) as client:
        await declare(client, {}, tools)
        current = client.session["audio"]["input"]["turn_detection"]["type"]  # the server's default
        for turn in range(turns):
            mode = modes[turn % len(modes)]
            if mode == "default":
                mode = current
            elif mode != current:
                seen = len(client.events)
                await client.send({"type": "session.update", "session": {"audio": {"input": {"turn_detection": {"type": mode}}}}})
                await client.wait_for("session.updated", after=seen)
                current = mode
            seen = len(client.events)
            speech_end = await client.stream_audio(clips[turn % len(clips)], trailing_silence_s=TRAILING_SILENCE_S[mode])
            try:
                reply, _ = await reply_heard(client, await client.next_reply(after=seen, timeout=120), seen, 120)
            except (TimeoutError, ConnectionError) as error:
                result.errors.append(f"voice turn {turn}: {error}")
                continue
            errors = [e["error"]["code"] for e in client.events[seen:] if e["type"] == "error"]
            result.errors += [f"voice turn {turn}: {code}" for code in errors]
            if reply.first_audio_at is None:
                result.errors.append(f"voice turn {turn}: reply {reply.status} without audio")
                continue
            result.v2v_s.append(reply.first_audio_at - speech_end)
            result.modes.append(mode)
            result.turns.append(turn)
            result.server_latency.append(reply.done["latency"])
            await client.hear_out(reply, MAX_LISTEN_S)


async def _text_user(url: str, turns: int, offset_s: float, tools: list[dict], result: UserResult) -> None:
    await asyncio.sleep(offset_s)
    async with RealtimeClient(url) as client:
        await declare(client, {"output_modalities": ["text"]}, tools)
        for turn in range(turns):
            seen = len(client.events)
            sent = time.perf_counter()
            await client.say_text(TYPED[turn % len(TYPED)])
            try:
                reply, _ = await reply_heard(client, await client.next_reply(after=seen, timeout=120), seen, 120)
            except (TimeoutError, ConnectionError) as error:
                result.errors.append(f"text turn {turn}: {error}")
                continue
            if reply.first_text_at is None:
                result.errors.append(f"text turn {turn}: reply {reply.status} without text")
                continue
            result.text_ttft_s.append(reply.first_text_at - sent)


async def _run_users(url: str, args: argparse.Namespace) -> list[UserResult]:
    clips = _speech()
    rng = random.Random(args.seed)
    tools = page_tools(args)
    results = [UserResult() for _ in range(args.users)]
    voice = []
    for index, result in enumerate(results):
        order = clips[:]
        rng.shuffle(order)
        modes = list(MODES) if args.turn_modes == "both" else [args.turn_modes]
        modes = modes[index % len(modes) :] + modes[: index % len(modes)]  # half the users start with each
        voice.append(_voice_user(url, order, args.turns, rng.uniform(0.0, 1.0), modes, tools, result))
    await asyncio.gather(*voice)
    await asyncio.gather(*(_text_user(url, args.text_turns, rng.uniform(0.0, 0.5), tools, r) for r in results))
    return results


def summarize(results: list[UserResult], args: argparse.Namespace) -> dict[str, Any]:
    v2v = [v for r in results for v in r.v2v_s]
    ttft = [v for r in results for v in r.text_ttft_s]
    latencies = [lat for r in results for lat in r.server_latency]
    out: dict[str, Any] = {
        "users": args.users,
        "voice_turns": len(v2v),
        "text_turns": len(ttft),
        "errors": sum(len(r.errors) for r in results),
        "v2v_p50_s": percentile(v2v, 50, 3),
        "v2v_p95_s": percentile(v2v, 95, 3),
        "v2v_max_s": percentile(v2v, 100, 3),
        # the users' first turns start together on a fresh server; the later ones spread out as replies differ
        "v2v_first_turn_max_s": percentile([v for r in results for v, t in zip(r.v2v_s, r.turns) if t == 0], 100, 3),
        "v2v_later_p95_s": percentile([v for r in results for v, t in zip(r.v2v_s, r.turns) if t > 0], 95, 3),
        "text_ttft_p50_s": percentile(ttft, 50, 3),
        "text_ttft_p95_s": percentile(ttft, 95, 3),
        "turn_detection": ", ".join(sorted({m for r in results for m in r.modes})),
        "tools": ",".join(tool["name"] for tool in page_tools(args)) or "none",
    }
    if v2v:  # where the slowest turn's time went, by the server's stages
        turns = [(v, lat) for r in results for v, lat in zip(r.v2v_s, r.server_latency)]
        worst_s, worst = max(turns, key=lambda turn: turn[0])
        stages = [f"{stage} {worst[stage]:g}" for stage in STAGES if isinstance(worst.get(stage), (int, float))]
        out["v2v_slowest_turn"] = f"{worst_s:.3f} s ({', '.join(stages)})"
    if args.turn_modes == "both":
        for mode in MODES:
            turns = [(v, lat) for r in results for v, lat, m in zip(r.v2v_s, r.server_latency, r.modes) if m == mode]
            out[f"{mode}_v2v_p50_s"] = percentile([v for v, _ in turns], 50, 3)
            out[f"{mode}_v2v_p95_s"] = percentile([v for v, _ in turns], 95, 3)
            for stage in ("endpoint_ms", "llm_first_token_ms"):  # the score's wait, and what it costs the engine
                values = [lat[stage] for _, lat in turns if isinstance(lat.get(stage), (int, float))]
                out[f"{mode}_server_{stage.removesuffix('_ms')}_p50_ms"] = percentile(values, 50, 1)
    speculative = [lat for lat in latencies if lat.get("speculative")]
    out["speculative_share"] = round(len(speculative) / len(latencies), 3) if latencies else None
    for stage in STAGES:
        values = [lat[stage] for lat in latencies if isinstance(lat.get(stage), (int, float))]
        out[f"server_{stage.removesuffix('_ms')}_p50_ms"] = round(float(np.median(values)), 1) if values else None
    return out


def run(args: argparse.Namespace, settings: Settings) -> dict[str, Any]:
    started = time.perf_counter()
    if args.url:
        results = asyncio.run(_run_users(args.url, args))
        models = ServerProbe.for_ws_url(args.url).models()
        server = args.url.split("?", 1)[0]
        own_settings: dict[str, Any] = {}  # a remote server's own settings are not known here
    else:
        from app.models.prepare import prepare_models
        from app.web.server import ServerThread, create_app

        prepared = prepare_models(settings, progress=True)
        bench_settings = settings.model_copy(update={"max_sessions": max(settings.max_sessions, args.users * 2)})
        with ServerThread(create_app(bench_settings, prepared=prepared)) as base_url:
            url = base_url.replace("http://", "ws://") + "/ws"
            results = asyncio.run(_run_users(url, args))
            models = ServerProbe.for_ws_url(url).models()
        server = "own (127.0.0.1, free port)"
        own_settings = {"vad_silence_ms": settings.vad_silence_ms, "speculative_asr": settings.speculative_asr,
                        "prefill_ahead": settings.prefill_ahead}
    summary = summarize(results, args)
    for index, result in enumerate(results):
        for error in result.errors[:5]:
            print(f"user {index}: {error}")
    summary.update(
        {
            "server": server,
            **models,  # the measured server's models (GET /v1/models), not this client's settings
            **own_settings,
            "wall_s": round(time.perf_counter() - started, 1),
        }
    )
    return report(f"voice: {args.users} simulated user(s), end of speech -> first reply audio", summary, args.json_path)
