"""``voicechat bench tts``: time to the first audio of a reply and real-time factor, per synthesiser.

First-chunk time is measured where a reply meets it: a first clause (at most ten words) handed to the
shared worker, until its first PCM bytes at the client's rate come back; beside it, the synthesiser
alone on the same clause. Beside the wall-clock figures stand CPU-time ones: on a machine shared with
other work the wall clock includes waiting for a core, while CPU time (with one synthesis thread)
approximates the wall clock of an idle machine. The real-time factor is
synthesis time over audio length for a paragraph, on the synthesiser directly. A third measurement
shows what the worker's priority is for: a new reply's first clause arriving while the worker has
later chunks of three other replies queued, spoken first (as the worker ranks it) or in arrival order.
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import statistics
import time
from typing import Any

from app.bench.report import report
from app.config import Settings
from app.tts.normalize import normalize_for_speech
from app.tts.synthesizer import SpeechSynthesizer, SynthesisError
from app.tts.worker import TTSWorker

FIRST_CLAUSES = [
    "Sure, I can help with that.",
    "The capital of France is Paris.",
    "Good morning!",
    "That is a great question,",
    "It will be sunny tomorrow afternoon,",
    "I think the answer is forty-two.",
    "Well,",
    "Here are three easy recipes for dinner:",
]
PARAGRAPH = (
    "Paris is the capital of France and its largest city. It sits on the river Seine, in the north of the "
    "country. The city is known for its museums, its cafes and its long history, and millions of people "
    "visit it every year. Spring and early autumn are the most pleasant times to go."
)
LATER_CHUNK = "This later sentence of another reply is waiting in the queue as well."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--runs", type=int, default=3, help="repetitions of each measurement (medians are reported)")
    parser.add_argument("--backends", default="piper,espeak,coqui", help="comma-separated synthesisers to measure")
    parser.add_argument(
        "--coqui-model", default=None, metavar="PATH",
        help="Coqui model folder or name (default: --tts-voice when --tts-backend is coqui)",
    )  # fmt: skip


def run(args: argparse.Namespace, settings: Settings) -> dict[str, Any]:
    results: dict[str, Any] = {"tts_out_rate": settings.output_sample_rate, "tts_runs": args.runs}
    for name in [b.strip() for b in args.backends.split(",") if b.strip()]:
        try:
            synthesizer = _load(name, args, settings)
        except SynthesisError as error:
            results[f"tts_{name}"] = f"skipped: {error}"
            continue
        results.update(asyncio.run(_measure(name, synthesizer, args.runs, settings.output_sample_rate)))
    return report("speech synthesis", results, args.json_path)


def _load(name: str, args: argparse.Namespace, settings: Settings) -> SpeechSynthesizer:
    if name == "piper":
        from app.models.prepare import prepare_models
        from app.tts.piper_backend import PiperSynthesizer

        prepared = prepare_models(settings.model_copy(update={"tts_backend": "piper"}))
        return PiperSynthesizer(prepared.piper_model, prepared.piper_config, threads=settings.tts_threads)
    if name == "espeak":
        from app.tts.espeak_backend import EspeakSynthesizer

        return EspeakSynthesizer()
    if name == "coqui":
        model = args.coqui_model or (settings.tts_voice if settings.tts_backend == "coqui" else None)
        if model is None:
            raise SynthesisError("needs a Coqui model with a real voice (--coqui-model DIR); none ships in a package")
        from app.tts.coqui_backend import CoquiSynthesizer

        return CoquiSynthesizer(model)
    raise SynthesisError(f"unknown backend {name!r}")


async def _measure(name: str, synthesizer: SpeechSynthesizer, runs: int, out_rate: int) -> dict[str, Any]:
    worker = TTSWorker(synthesizer)
    await worker.start()
    try:
        first_ms, direct = [], []
        for run in range(runs):  # interleaved, so both see the same machine load
            for i, clause in enumerate(FIRST_CLAUSES):
                first_ms.append(await _first_chunk_ms(worker, clause, f"{name}-{run}-{i}", out_rate))
                direct.append(_direct_first_piece(synthesizer, clause))
        busy_priority, busy_fifo = [], []
        for run in range(runs):
            busy_priority.append(await _first_chunk_when_busy_ms(worker, f"{name}-p{run}", True, out_rate))
            busy_fifo.append(await _first_chunk_when_busy_ms(worker, f"{name}-f{run}", False, out_rate))
    finally:
        await worker.stop()
    rtf = [_rtf(synthesizer) for _ in range(runs)]
    return {
        f"tts_first_chunk_ms_{name}": round(statistics.median(first_ms), 1),
        f"tts_first_chunk_ms_p90_{name}": round(statistics.quantiles(first_ms, n=10)[-1], 1),
        f"tts_first_piece_ms_direct_{name}": round(statistics.median(wall for wall, _ in direct), 1),
        f"tts_first_piece_cpu_ms_direct_{name}": round(statistics.median(cpu for _, cpu in direct), 1),
        f"tts_rtf_{name}": round(statistics.median(wall for wall, _ in rtf), 4),
        f"tts_rtf_cpu_{name}": round(statistics.median(cpu for _, cpu in rtf), 4),
        f"tts_first_chunk_ms_busy_priority_{name}": round(statistics.median(busy_priority), 1),
        f"tts_first_chunk_ms_busy_fifo_{name}": round(statistics.median(busy_fifo), 1),
    }


async def _first_chunk_ms(worker: TTSWorker, text: str, reply_id: str, out_rate: int, first: bool = True) -> float:
    started = time.perf_counter()
    stream = worker.synthesize(text, reply_id=reply_id, first=first, out_rate=out_rate)
    await anext(stream)
    elapsed = (time.perf_counter() - started) * 1000
    async for _ in stream:
        pass
    return elapsed


async def _first_chunk_when_busy_ms(worker: TTSWorker, reply_id: str, ranked: bool, out_rate: int) -> float:
    """A new reply's first clause behind later chunks of three replies (``ranked``: as the worker ranks it)."""

    async def drain(rid: str, text: str, first: bool) -> None:
        async for _ in worker.synthesize(text, reply_id=rid, first=first, out_rate=out_rate):
            pass

    others = [asyncio.create_task(drain(f"{reply_id}-other{i}", LATER_CHUNK, False)) for i in range(3)]
    await asyncio.sleep(0)  # the three later chunks are queued first
    # Not ranked: the same clause queued like the later chunks, so it waits for them (arrival order).
    elapsed = await _first_chunk_ms(worker, FIRST_CLAUSES[1], reply_id, out_rate, first=ranked)
    await asyncio.gather(*others)
    return elapsed


def _cpu_s() -> float:
    """CPU seconds of this process and its finished children (espeak-ng runs as one)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def _direct_first_piece(synthesizer: SpeechSynthesizer, text: str) -> tuple[float, float]:
    """The synthesiser alone on the normalised clause: wall and CPU milliseconds until its first piece."""
    wall, cpu = time.perf_counter(), _cpu_s()
    pieces = synthesizer.synthesize(normalize_for_speech(text))
    next(pieces)
    for _ in pieces:  # a clause is one piece; finishing it lets espeak-ng's CPU time be counted
        pass
    return (time.perf_counter() - wall) * 1000, (_cpu_s() - cpu) * 1000


def _rtf(synthesizer: SpeechSynthesizer) -> tuple[float, float]:
    """Wall-clock and CPU-time real-time factors of a paragraph."""
    wall, cpu = time.perf_counter(), _cpu_s()
    samples = sum(len(piece) for piece in synthesizer.synthesize(PARAGRAPH))
    audio_s = samples / synthesizer.sample_rate
    return (time.perf_counter() - wall) / audio_s, (_cpu_s() - cpu) / audio_s
