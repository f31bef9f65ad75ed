"""``voicechat bench turns``: does a pause end the user's turn? ``semantic_vad`` beside ``server_vad`` in one run.

Spoken utterances, half with a pause (0.6-0.9 s) inside an unfinished thought ("What is the capital of ... France?"),
half complete, in synthetic voices (espeak-ng and piper) and a human one (Debian's asterisk prompts, where
installed: "you have ... two new messages"), are streamed in real time through the server, once per turn detection
mode, the two sessions side by side so both meet the same load, each utterance in a fresh conversation. Replies are
text only and short (the speculative reply still runs at each pause, as in use).

Figures per mode: ``turn_false_splits``, the share of unfinished utterances whose inner pause ended a turn;
``turn_complete_splits``, the share of complete utterances that a turn ended before their end (at a gap between words);
``turn_endpoint_ms_p50``, end of speech (the last voiced frame sent) -> ``input_audio_buffer.committed`` after
complete utterances; ``turn_late_ms_p95``, the same at the real end of every utterance; ``turn_missed_ends``,
utterances whose end committed no turn within the trailing silence.
"""

from __future__ import annotations

import argparse
import asyncio
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from app.bench.client import RealtimeClient, ServerProbe
from app.bench.report import report
from app.config import Settings
from app.percentile import percentile

RATE = 16000
LEAD_S = 0.3
TRAILING_S = 2.5  # longer than any wait (eagerness low: 1.5 s)
PAUSES_S = (0.6, 0.75, 0.9)
SYNTHETIC_UNFINISHED = (
    ("What is the capital of", "France?"),
    ("I would like to book a table for", "two people tonight."),
    ("Can you tell me how to", "make pancakes?"),
    ("Set a timer for", "ten minutes."),
    ("Remind me to call", "my sister tomorrow morning."),
    ("I need to buy eggs, milk and", "some bread."),
    ("What will the weather be like in", "London this weekend?"),
    ("Tell me a short story about", "a brave little mouse."),
    ("How long does it take to", "boil an egg?"),
    ("Turn off the lights in the", "kitchen."),
    ("Um, so I was thinking about", "going to the beach."),
    ("Can you recommend a good book about", "the history of science?"),
)
SYNTHETIC_COMPLETE = (
    "What is the capital of Italy?",
    "Please set a timer for five minutes.",
    "How many legs does a spider have?",
    "My favorite color is blue.",
    "Turn on the lights in the living room.",
    "What time is it?",
    "Tell me a joke.",
    "Thank you, that was very helpful.",
    "Why do leaves fall in autumn?",
    "Play some relaxing music.",
    "What is the tallest mountain in the world?",
    "Can you name a famous painter?",
)
# Debian's asterisk prompts, one human speaker: (clips before the pause, clips after it), and whole prompts
HUMAN_UNFINISHED = (
    (("vm-youhave",), ("digits/2", "vm-INBOX", "vm-messages")),
    (("queue-holdtime",), ("digits/5", "minutes")),
    (("vm-theperson",), ("digits/4", "digits/2", "vm-isunavail")),
    (("conf-enteringno",), ("digits/7",)),
    (("vm-onefor",), ("vm-INBOX", "vm-messages")),
    (("if-correct-press",), ("digits/1",)),
)
HUMAN_COMPLETE = ("agent-pass", "pls-hold-while-try", "vm-delete", "vm-tocallback", "please-try-again", "queue-thankyou")
ASTERISK_SOUNDS = Path("/usr/share/asterisk/sounds/en")
MODES = ("semantic_vad", "server_vad")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--url", help="WebSocket URL of a running server (ws://HOST:PORT/ws); default: start one")
    parser.add_argument("--eagerness", default="auto", choices=("low", "medium", "high", "auto"),
                        help="semantic_vad's eagerness")  # fmt: skip


@dataclass
class Utterance:
    name: str
    audio: np.ndarray  # float32 16 kHz, speech from LEAD_S on
    complete: bool
    speech_end_s: float  # stream time of its last voiced sample
    resumes_s: float | None = None  # unfinished: stream time where the speech after the pause starts


@dataclass
class ModeResult:
    false_splits: int = 0
    unfinished: int = 0
    complete_splits: int = 0
    complete: int = 0
    endpoint_ms: list[float] = field(default_factory=list)  # complete utterances
    late_ms: list[float] = field(default_factory=list)  # every utterance's real end
    missed: int = 0
    errors: list[str] = field(default_factory=list)


def _trimmed(audio: np.ndarray) -> np.ndarray:
    from app.bench.speech_samples import speech_bounds

    start, end = speech_bounds(audio)
    return audio[int(start * RATE) : int(end * RATE)]


def _utterance(name: str, parts: list[np.ndarray], pause_s: float) -> Utterance:
    lead = np.zeros(int(LEAD_S * RATE), np.float32)
    if len(parts) == 1:
        return Utterance(name, np.concatenate([lead, parts[0]]), True, LEAD_S + len(parts[0]) / RATE)
    first, second = parts
    resumes_s = LEAD_S + (len(first) + int(pause_s * RATE)) / RATE
    audio = np.concatenate([lead, first, np.zeros(int(pause_s * RATE), np.float32), second])
    return Utterance(name, audio, False, len(audio) / RATE, resumes_s)


def _human(names: tuple[str, ...]) -> np.ndarray:
    from app.audio import load_audio

    return np.concatenate([_trimmed(load_audio(ASTERISK_SOUNDS / f"{name}.wav")) for name in names])


def utterances() -> list[Utterance]:
    """Half unfinished with a pause inside, half complete: espeak-ng and piper voices, and the human prompts."""
    from app.bench.speech_samples import espeak_speech, piper_speech

    out: list[Utterance] = []
    for voice, speak in (("espeak", espeak_speech), ("piper", piper_speech)):
        for index, (before, after) in enumerate(SYNTHETIC_UNFINISHED):
            out.append(_utterance(f"{voice}: {before} ... {after}", [_trimmed(speak(before)), _trimmed(speak(after))],
                                  PAUSES_S[index % len(PAUSES_S)]))  # fmt: skip
        out += [_utterance(f"{voice}: {text}", [_trimmed(speak(text))], 0) for text in SYNTHETIC_COMPLETE]
    if ASTERISK_SOUNDS.is_dir():
        for index, (before, after) in enumerate(HUMAN_UNFINISHED):
            out.append(_utterance(f"human: {' '.join(before)} ... {' '.join(after)}", [_human(before), _human(after)],
                                  PAUSES_S[index % len(PAUSES_S)]))  # fmt: skip
        out += [_utterance(f"human: {name}", [_human((name,))], 0) for name in HUMAN_COMPLETE]
    return out


async def _replies_over(client: RealtimeClient, after: int, timeout: float = 60.0) -> None:
    """Until every response begun since event ``after`` is done, so the next utterance starts in quiet."""
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        events = client.events[after:]
        if sum(e["type"] == "response.created" for e in events) <= sum(e["type"] == "response.done" for e in events):
            return
        await asyncio.sleep(0.05)


async def _session(url: str, mode: str, eagerness: str, speech: list[Utterance], result: ModeResult) -> None:
    detection: dict[str, Any] = {"type": mode, **({"eagerness": eagerness} if mode == "semantic_vad" else {})}
    async with RealtimeClient(url) as client:
        await client.send({"type": "session.update", "session": {"output_modalities": ["text"], "max_output_tokens": 16,
                                                                 "audio": {"input": {"turn_detection": detection}}}})
        await client.wait_for("session.updated")
        for utterance in speech:
            seen = len(client.events)
            started = time.perf_counter()
            await client.stream_audio(utterance.audio, trailing_silence_s=TRAILING_S)
            await _replies_over(client, seen)
            commits = [e["_t"] - started for e in client.events[seen:] if e["type"] == "input_audio_buffer.committed"]
            result.errors += [f"{utterance.name}: {e['error']['code']}" for e in client.events[seen:] if e["type"] == "error"]
            ends = [t for t in commits if t > utterance.speech_end_s]
            if not ends:
                result.missed += 1
            else:
                result.late_ms.append((ends[0] - utterance.speech_end_s) * 1000)
                if utterance.complete:
                    result.endpoint_ms.append(result.late_ms[-1])
            split = any(t <= utterance.speech_end_s for t in commits)
            if utterance.complete:
                result.complete += 1
                result.complete_splits += split
            else:
                result.unfinished += 1
                result.false_splits += split
            await _forget(client, seen)


async def _forget(client: RealtimeClient, after: int) -> None:
    """Delete the items of the last utterance: each one is heard in a fresh conversation, as ``bench quality`` asks each
    question in one. A session of sixty unrelated fragments and cut replies (``max_output_tokens`` 16) would teach
    the end-of-turn score that a message may end anywhere (docs/benchmarks.md)."""
    items = [e["item"]["id"] for e in client.events[after:] if e["type"] == "conversation.item.added"]
    for item_id in dict.fromkeys(items):
        seen = len(client.events)
        await client.send({"type": "conversation.item.delete", "item_id": item_id})
        await client.wait_for(("conversation.item.deleted", "error"), after=seen)


def summarize(results: dict[str, ModeResult], speech: list[Utterance]) -> dict[str, Any]:
    out: dict[str, Any] = {
        "utterances": len(speech),
        "utterances_unfinished": sum(not u.complete for u in speech),
        "utterances_human": sum(u.name.startswith("human") for u in speech),
    }
    for mode, result in results.items():
        out[f"{mode}_turn_false_splits"] = round(result.false_splits / result.unfinished, 3) if result.unfinished else None
        out[f"{mode}_turn_complete_splits"] = round(result.complete_splits / result.complete, 3) if result.complete else None
        out[f"{mode}_turn_endpoint_ms_p50"] = percentile(result.endpoint_ms, 50, 1)
        out[f"{mode}_turn_late_ms_p95"] = percentile(result.late_ms, 95, 1)
        out[f"{mode}_turn_missed_ends"] = result.missed
        out[f"{mode}_errors"] = len(result.errors)
    return out


async def _run_modes(url: str, eagerness: str, speech: list[Utterance]) -> dict[str, ModeResult]:
    results = {mode: ModeResult() for mode in MODES}
    await asyncio.gather(*(_session(url, mode, eagerness, speech, results[mode]) for mode in MODES))
    return results


def run(args: argparse.Namespace, settings: Settings) -> dict[str, Any]:
    started = time.perf_counter()
    speech = utterances()
    if args.url:
        results = asyncio.run(_run_modes(args.url, args.eagerness, speech))
        models = ServerProbe.for_ws_url(args.url).models()
        server = args.url.split("?", 1)[0]
    else:
        from app.models.prepare import prepare_models
        from app.web.server import ServerThread, create_app

        prepared = prepare_models(settings, progress=True)
        with ServerThread(create_app(settings, prepared=prepared)) as base_url:
            url = base_url.replace("http://", "ws://") + "/ws"
            results = asyncio.run(_run_modes(url, args.eagerness, speech))
            models = ServerProbe.for_ws_url(url).models()
        server = "own (127.0.0.1, free port)"
    for mode, result in results.items():
        for error in result.errors[:5]:
            print(f"{mode}: {error}")
    summary = summarize(results, speech)
    summary.update({"eagerness": args.eagerness, "server": server, **models,
                    "wall_s": round(time.perf_counter() - started, 1)})  # fmt: skip
    return report("turns: does a pause end the turn? semantic_vad vs server_vad", summary, args.json_path)
