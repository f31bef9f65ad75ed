"""``voicechat bench asr``: Whisper speed, batching speed-up and accuracy; endpointing delay.

All figures come from one run, side by side, on the same audio: the packaged pytest-audioeval
recordings plus the fixed ``SENTENCES`` spoken by the packaged piper voice (noise-free, so the audio
is the same every run). Beside the wall clock stand CPU-time figures: with one ASR thread, CPU time
approximates the wall clock of an idle machine, while the wall clock here includes waiting for a
core on a shared machine.

- asr_rtf: one utterance (the longest sentence), transcription time / audio length, real frames
  only (the default) and, beside it, openai-whisper's 30 s window (``asr_rtf_full_window``).
- asr_encode_ms / asr_decode_ms / asr_decode_step_ms: where one utterance's time goes, medians over all
  samples decoded alone (the encoder on its trimmed frames, at least ``MIN_ENCODED_S``; the greedy
  decode; its time per token), and ``asr_decoder_weights``, how the decoder's weights are read.
- asr_batch8_speedup: 8 utterances decoded one by one vs as one batch.
- asr_wer: word error rate over all samples, both ways; asr_misses: the utterances heard wrong, as said -> as heard.
- asr_8_sessions_*: 8 sessions ending their turns together, through the shared recogniser (batched)
  and through one that takes one utterance at a time: the median and worst wait for a transcript.
- vad_endpoint_ms: stream time from the true end of speech to SpeechStopped (the hangover plus frame
  granularity); vad_pause_ms_after_end: to SpeechPaused, where speculative ASR may start.

Recorded human speech (the asterisk prompts of ``speech_samples.asterisk_samples``, in ``--language``), per
model of ``--human-models``, measures what streaming costs against offline Whisper on the same clips and weights:

- asr_wer_stream_<model>: each clip streamed as the server hears it (0.5 s of silence before, 1.5 s
  after, 20 ms chunks through the session's endpointer, the utterances it cuts through the shared,
  batching recogniser: trimmed encoder, guards and their fallback); asr_wer_offline_<model>:
  openai-whisper's own ``transcribe()`` of the clip (full 30 s window, its temperature fallback).
  Both after Whisper's text normaliser (its English one for English).
- asr_repeats_<model> (and _offline): clips heard with a repeated last word the speaker did not repeat;
  asr_fallbacks_<model>: share of utterances the guards decoded again; asr_stream_misses_<model>:
  the clips streaming heard differently from offline Whisper, as said -> streamed | offline.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from typing import Any, Callable

import numpy as np

from app.bench.report import report
from app.config import Settings


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--runs", type=int, default=3, help="repetitions of each timing (medians are reported)")
    parser.add_argument("--human-models", nargs="*", default=["tiny.en", "base"], metavar="MODEL",
                        help="Whisper models measured on recorded human speech, streamed and offline ('none' or no name: skip)")
    parser.add_argument("--human-every", type=int, default=1, metavar="K",
                        help="only every K-th recorded clip (a quicker, rougher figure)")
    parser.add_argument("--language", default="en", metavar="CODE",
                        help="language of the recorded human speech: en, es or fr (the asterisk-core-sounds-CODE-wav "
                        "package); English-only models are left out for the others")


def _timed(call: Callable[[], Any], runs: int) -> tuple[float, float]:
    """Median wall and CPU seconds of ``call`` (CPU time of this thread: its own compute, no waiting)."""
    walls, cpus = [], []
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.thread_time()
        call()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.thread_time() - cpu)
    return statistics.median(walls), statistics.median(cpus)


def run(args: argparse.Namespace, settings: Settings) -> dict[str, Any]:
    import torch

    from app.asr import create_transcriber
    from app.device import use_torch_threads
    from app.bench.speech_samples import SENTENCES, audioeval_samples, piper_speech, same_words, word_error_rate
    from app.models.prepare import prepare_models

    use_torch_threads(settings.asr_threads)  # as the server's ASR worker runs
    prepared = prepare_models(settings)
    samples = [(s.audio, s.text) for s in audioeval_samples("en")] + [(piper_speech(t), t) for t in SENTENCES]
    texts = [text for _, text in samples]
    real = create_transcriber(settings, prepared, full_window=False)
    full = create_transcriber(settings, prepared, full_window=True)
    results: dict[str, Any] = {
        "asr_model": settings.whisper_model,
        "asr_device": str(real.device),
        "asr_dtype": str(real.dtype).removeprefix("torch."),
        "asr_threads": torch.get_num_threads(),
        "asr_runs": args.runs,
        "asr_samples": len(samples),
        "asr_audio_s": round(sum(len(a) for a, _ in samples) / 16000, 2),
    }

    # accuracy, both ways, one utterance per call
    for name, transcriber in (("", real), ("_full_window", full)):
        hypotheses = [transcriber.transcribe_batch([audio])[0].text for audio, _ in samples]
        results[f"asr_wer{name}"] = round(word_error_rate(texts, hypotheses), 4)
        misses = [f"{said!r} -> {heard!r}" for said, heard in zip(texts, hypotheses) if not same_words(said, heard)]
        results[f"asr_misses{name}"] = "; ".join(misses) or "none"

    results.update(_stages(real, [audio for audio, _ in samples], args.runs))

    # real-time factor of one utterance
    longest = max((audio for audio, _ in samples), key=len)
    seconds = len(longest) / 16000
    results["asr_rtf_utterance_s"] = round(seconds, 2)
    for name, transcriber in (("", real), ("_full_window", full)):
        wall, cpu = _timed(lambda t=transcriber: t.transcribe_batch([longest]), args.runs)
        results[f"asr_rtf{name}"] = wall / seconds
        results[f"asr_rtf{name}_cpu"] = cpu / seconds
    results["asr_real_frames_speedup"] = results["asr_rtf_full_window"] / results["asr_rtf"]
    results["asr_real_frames_speedup_cpu"] = results["asr_rtf_full_window_cpu"] / results["asr_rtf_cpu"]

    # 8 utterances one by one vs one batch
    eight = [audio for audio, _ in samples[-8:]]
    serial_wall, serial_cpu = _timed(lambda: [real.transcribe_batch([a]) for a in eight], args.runs)
    batch_wall, batch_cpu = _timed(lambda: real.transcribe_batch(eight), args.runs)
    results.update(
        asr_batch8_serial_s=serial_wall,
        asr_batch8_batched_s=batch_wall,
        asr_batch8_speedup=serial_wall / batch_wall,
        asr_batch8_speedup_cpu=serial_cpu / batch_cpu,
    )

    results.update(_sessions(settings, real, eight))
    results.update(_endpointing(settings, [audio for audio, _ in samples]))
    results["asr_human_language"] = args.language
    for model in [m for m in args.human_models if m != "none"]:
        if args.language == "en" or not model.endswith(".en"):
            results.update(human_speech(settings.model_copy(update={"asr_model": model, "asr_language": args.language}),
                                        args.human_every))
    return report("ASR and endpointing", results, args.json_path)


def streamed_utterances(settings: Settings, audio: np.ndarray, *, lead_s: float = 0.5, tail_s: float = 1.5) -> list[np.ndarray]:
    """The utterances the server's endpointer cuts from ``audio`` between silences, fed in 20 ms chunks."""
    from app.vad import Endpointer, SpeechStopped

    stream = np.concatenate([np.zeros(int(lead_s * 16000), np.float32), audio, np.zeros(int(tail_s * 16000), np.float32)])
    endpointer, events = Endpointer(settings), []
    for at in range(0, len(stream), 320):
        events += endpointer.feed(stream[at : at + 320])
    return [event.audio for event in events if isinstance(event, SpeechStopped)]


async def transcribe_streamed(settings: Settings, transcriber, clips: list[np.ndarray]) -> tuple[list[str], int, int]:
    """Every clip through the endpointer and one shared recogniser (all submitted at once, so they batch):
    each clip's text, the utterances decoded and how many of them took the guards' fallback."""
    from app.asr import SpeechRecognizer

    recognizer = SpeechRecognizer(
        transcriber, batch_window_ms=settings.asr_batch_window_ms, max_batch=settings.asr_max_batch, threads=settings.asr_threads
    )
    pieces = [streamed_utterances(settings, clip) for clip in clips]
    await recognizer.start()
    try:
        heard = await asyncio.gather(
            *(recognizer.transcribe(piece, session_id=f"clip{i}") for i, clip in enumerate(pieces) for piece in clip)
        )
    finally:
        await recognizer.stop()
    texts, at = [], 0
    for clip in pieces:
        texts.append(" ".join(t.text for t in heard[at : at + len(clip)]).strip())
        at += len(clip)
    return texts, len(heard), sum(t.attempts > 1 for t in heard)


def human_speech(settings: Settings, every: int = 1) -> dict[str, Any]:
    """WER and repeats of ``settings.whisper_model`` on the recorded asterisk prompts of ``settings.asr_language``,
    streamed vs offline."""
    import whisper

    from app.asr import create_transcriber
    from app.bench.speech_samples import asterisk_samples, repeats_last_word, whisper_normalizer, whisper_word_error_rate
    from app.models.prepare import prepare_models

    model, language = settings.whisper_model, settings.asr_language
    prepared = prepare_models(settings)
    samples = asterisk_samples(language)[::every]
    said = [s.text for s in samples]
    streamed, utterances, fallbacks = asyncio.run(
        transcribe_streamed(settings, create_transcriber(settings, prepared), [s.audio for s in samples])
    )
    reference = whisper.load_model(str(prepared.whisper_pt), device="cpu")
    offline = [reference.transcribe(s.audio, language=language, fp16=False)["text"].strip() for s in samples]
    normalize = whisper_normalizer(language)
    misses = [
        f"{s!r} -> {h!r} | {o!r}" for s, h, o in zip(said, streamed, offline) if normalize(h) != normalize(o)
    ]
    return {
        f"asr_human_clips_{model}": len(samples),
        f"asr_wer_stream_{model}": round(whisper_word_error_rate(said, streamed, language), 4),
        f"asr_wer_offline_{model}": round(whisper_word_error_rate(said, offline, language), 4),
        f"asr_repeats_{model}": sum(repeats_last_word(s, h) for s, h in zip(said, streamed)),
        f"asr_repeats_offline_{model}": sum(repeats_last_word(s, o) for s, o in zip(said, offline)),
        f"asr_fallbacks_{model}": round(fallbacks / max(1, utterances), 4),
        f"asr_stream_misses_{model}": "; ".join(misses) or "none",
    }


def _stages(transcriber, utterances: list[np.ndarray], runs: int) -> dict[str, Any]:
    """Median encoder and decoder time of one utterance decoded alone (no fallback), and per decoded token."""
    import torch

    from app.asr.guards import token_budget

    encode, decode, step = [], [], []
    with torch.inference_mode():
        for _ in range(runs):
            for audio in utterances:
                started = time.perf_counter()
                features = transcriber.features([audio])
                encoded = time.perf_counter()
                result = transcriber.decode(features, [token_budget(len(audio), 16000)], language=transcriber.language,
                                            trimmed=True)[0].result
                done = time.perf_counter()
                encode.append(encoded - started)
                decode.append(done - encoded)
                step.append((done - encoded) / (len(result.tokens) + 1))  # the end of text is a step too
    linear = transcriber.model.decoder.blocks[0].mlp[0].forward
    compute = str(transcriber.decoder_dtype).removeprefix("torch.")
    return {
        "asr_encode_ms": 1000 * statistics.median(encode),
        "asr_decode_ms": 1000 * statistics.median(decode),
        "asr_decode_step_ms": 1000 * statistics.median(step),
        "asr_decoder_weights": f"{getattr(linear, 'weight_format', 'torch')} ({compute} compute)",
    }


def _sessions(settings: Settings, transcriber, utterances: list[np.ndarray]) -> dict[str, Any]:
    import asyncio

    from app.asr import SpeechRecognizer

    async def together(max_batch: int) -> list[float]:
        recognizer = SpeechRecognizer(
            transcriber, batch_window_ms=settings.asr_batch_window_ms, max_batch=max_batch, threads=settings.asr_threads
        )
        await recognizer.start()
        try:
            results = await asyncio.gather(
                *(recognizer.transcribe(audio, session_id=f"s{i}") for i, audio in enumerate(utterances))
            )
        finally:
            await recognizer.stop()
        return [r.asr_s for r in results]

    figures: dict[str, Any] = {}
    for name, max_batch in (("batched", settings.asr_max_batch), ("one_by_one", 1)):
        waits = asyncio.run(together(max_batch))
        figures[f"asr_8_sessions_{name}_p50_s"] = statistics.median(waits)
        figures[f"asr_8_sessions_{name}_max_s"] = max(waits)
    return figures


def _endpointing(settings: Settings, utterances: list[np.ndarray]) -> dict[str, Any]:
    """Each utterance after 0.5 s of silence and before 1.5 s of it, fed in 20 ms chunks as a browser sends them."""
    from app.bench.speech_samples import speech_bounds
    from app.vad import Endpointer, SpeechPaused, SpeechStopped

    lead, chunk = 0.5, 320
    stop_delays, pause_delays, found = [], [], 0
    vad_cpu, audio_s = 0.0, 0.0
    for utterance in utterances:
        stream = np.concatenate([np.zeros(int(lead * 16000), np.float32), utterance, np.zeros(24000, np.float32)])
        true_end = lead + speech_bounds(utterance)[1]
        endpointer, events = Endpointer(settings), []
        started = time.thread_time()
        for at in range(0, len(stream), chunk):
            events += endpointer.feed(stream[at : at + chunk])
        vad_cpu += time.thread_time() - started
        audio_s += len(stream) / 16000
        stops = [e for e in events if isinstance(e, SpeechStopped)]
        pauses = [e for e in events if isinstance(e, SpeechPaused)]
        if len(stops) == 1:
            found += 1
            stop_delays.append((stops[0].at_s - true_end) * 1000)
            pause_delays.append((pauses[-1].at_s - true_end) * 1000)
    return {
        "vad_utterances_endpointed": f"{found}/{len(utterances)}",
        "vad_silence_ms": settings.vad_silence_ms,
        "vad_endpoint_ms": statistics.median(stop_delays) if stop_delays else float("nan"),
        "vad_pause_ms_after_end": statistics.median(pause_delays) if pause_delays else float("nan"),
        "vad_cpu_ms_per_audio_s": vad_cpu * 1000 / audio_s,
    }
