"""One speech recogniser shared by every session: requests that arrive close together share a batch.

Sessions await ``transcribe``; a single worker thread (off the event loop) collects the requests
that arrive within ``batch_window_ms`` of the oldest one and decodes them in one Whisper call.
Finals go first; partial transcripts only fill the rest of a batch (on a GPU: on a CPU a final never waits for a
partial, which added a third of a final's time to its batch, docs/benchmarks.md), and only finals get the
hallucination guards' fallback decode (a partial that fails the guards gets no text). Each request may name
its session's language; requests of different languages share the batch's encoder pass. A partial is
dropped (its caller gets None) when a newer partial or a final of the same session is queued, when
a batch has no room for it, or when a final comes while it decodes in a batch of partials (the batch is
abandoned at the next token): under load they are the first to go.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from dataclasses import dataclass, field

import numpy as np

from app.asr.whisper_backend import SAMPLE_RATE, Superseded, WhisperTranscriber
from app.cpu_share import speech_activity
from app.device import use_torch_threads
from app.handoff import resolve_from_thread

logger = logging.getLogger(__name__)

# A partial joins a batch of finals only if it is at most this long: factor x the longest final + slack (samples).
_PARTIAL_LENGTH_FACTOR = 1.5
_PARTIAL_LENGTH_SLACK = SAMPLE_RATE


@dataclass
class Transcript:
    text: str
    language: str
    duration_s: float  # length of the audio
    asr_s: float  # wall time from the request to its result (queueing included)
    batch_size: int = 1  # how many utterances were decoded together
    attempts: int = 1  # decodes it took (more than one: the hallucination guards' fallback)


@dataclass(eq=False)
class _Request:
    audio: np.ndarray
    final: bool
    session_id: str | None
    language: str | None  # None: the transcriber's default
    future: asyncio.Future
    submitted: float = field(default_factory=time.perf_counter)


def _deliver(request: _Request, value: object) -> None:
    """Hand a result to the request's event loop (from the worker thread); a closed loop has no one waiting."""
    if not resolve_from_thread(request.future, value):
        logger.debug("ASR result for a closed event loop dropped")


class SpeechRecognizer:
    """Shared, batching front of a WhisperTranscriber. ``start()`` before use, ``stop()`` at shutdown."""

    def __init__(
        self, transcriber: WhisperTranscriber, *, batch_window_ms: float = 20.0, max_batch: int = 8, threads: int = 1,
        partials_join_finals: bool | None = None,
    ) -> None:
        """``partials_join_finals``: whether partials fill a batch of finals (None: where Whisper is not on a CPU)."""
        self.transcriber = transcriber
        if partials_join_finals is None:
            partials_join_finals = not transcriber.on_cpu
        self.partials_join_finals = partials_join_finals
        self.threads = threads
        self.batch_window_s = batch_window_ms / 1000
        self.max_batch = max(1, max_batch)
        self._queue: list[_Request] = []
        self._wake = threading.Condition()
        self._thread: threading.Thread | None = None
        self._stopping = False
        self._stats = {"asr_requests": 0, "asr_partials_dropped": 0, "asr_batches": 0, "asr_utterances": 0, "asr_fallbacks": 0}
        self._last_batch_s = 0.0

    async def start(self) -> None:
        """Start the worker thread; returns once Whisper is warm on it (its first decode on a thread is the slowest:
        docs/benchmarks.md, so the first turn after a start would wait for it)."""
        if self._thread is None:
            self._stopping = False
            ready = threading.Event()
            self._thread = threading.Thread(target=self._run, args=(ready,), name="asr-worker", daemon=True)
            self._thread.start()
            await asyncio.to_thread(ready.wait)

    async def stop(self) -> None:
        thread = self._thread
        if thread is None:
            return
        with self._wake:
            self._stopping = True
            pending, self._queue = self._queue, []
            self._wake.notify()
        for request in pending:
            _deliver(request, RuntimeError("speech recogniser stopped"))
        await asyncio.to_thread(thread.join)
        self._thread = None

    @property
    def languages(self) -> frozenset[str]:
        """The language codes the model transcribes (just 'en' for an English-only model)."""
        return self.transcriber.languages

    async def transcribe(
        self, audio: np.ndarray, *, final: bool = True, session_id: str | None = None, language: str | None = None
    ) -> Transcript | None:
        """Transcribe float32 16 kHz mono audio. A final always gets a Transcript; a partial may get None (dropped).
        ``language``: a code of :attr:`languages`, 'auto' (detect) or None (the server's ``asr_language``); one the
        model cannot transcribe is a ValueError here, before it could fail a whole batch."""
        if self._thread is None:
            raise RuntimeError("speech recogniser is not started")
        decoded_as = self.transcriber.check_language(language)
        audio = np.asarray(audio, dtype=np.float32).reshape(-1)
        if len(audio) == 0:
            return Transcript("", decoded_as or "en", 0.0, 0.0, 0)
        request = _Request(audio, final, session_id, language, asyncio.get_running_loop().create_future())
        superseded: list[_Request] = []
        with self._wake:
            if session_id is not None:  # an older partial of this session is no longer worth decoding
                superseded = [r for r in self._queue if not r.final and r.session_id == session_id]
                self._queue = [r for r in self._queue if r not in superseded]
            self._queue.append(request)
            self._stats["asr_requests"] += 1
            self._stats["asr_partials_dropped"] += len(superseded)
            self._wake.notify()
        for old in superseded:
            if not old.future.done():
                old.future.set_result(None)
        return await request.future

    def stats(self) -> dict:
        """Flat counters for the dashboard."""
        with self._wake:
            queued = len(self._queue)
        batches = self._stats["asr_batches"]
        return {
            **self._stats,
            "asr_queue": queued,
            "asr_mean_batch": self._stats["asr_utterances"] / batches if batches else 0.0,
            "asr_last_batch_s": self._last_batch_s,
        }

    # --- worker thread ---

    def _run(self, ready: threading.Event) -> None:
        use_torch_threads(self.threads)  # before its first op: the LLM engine's thread keeps its own count
        try:
            self.transcriber.warm_up()
        except Exception:  # a broken model still reports its error on each real request
            logger.exception("ASR warm-up failed")
        ready.set()
        while True:
            with self._wake:
                while not self._queue and not self._stopping:
                    self._wake.wait()
                if self._stopping:
                    return
                deadline = min(r.submitted for r in self._queue) + self.batch_window_s
                while len(self._queue) < self.max_batch and not self._stopping:
                    remaining = deadline - time.perf_counter()
                    if remaining <= 0:
                        break
                    self._wake.wait(remaining)
                if self._stopping:
                    return
                batch, dropped = self._take_batch()
            for request in dropped:
                _deliver(request, None)
            if batch:
                with speech_activity.job(urgent=any(r.final for r in batch)):
                    self._decode(batch)

    def _take_batch(self) -> tuple[list[_Request], list[_Request]]:
        """Finals first (oldest first), then partials that fit (on a CPU none with finals); partials left over are
        dropped. Holds the lock.

        A batch runs as long as its longest utterance needs, so a partial much longer than the
        finals it would join is dropped rather than allowed to slow them down.
        """
        live = [r for r in self._queue if not r.future.cancelled()]
        finals = [r for r in live if r.final]
        final_sessions = {r.session_id for r in finals if r.session_id is not None}
        partials = [r for r in live if not r.final]
        stale = [r for r in partials if r.session_id in final_sessions]
        partials = [r for r in partials if r.session_id not in final_sessions]
        batch = finals[: self.max_batch]
        if batch and not self.partials_join_finals:
            stale += partials
            partials = []
        elif batch:
            limit = _PARTIAL_LENGTH_FACTOR * max(len(r.audio) for r in batch) + _PARTIAL_LENGTH_SLACK
            stale += [r for r in partials if len(r.audio) > limit]
            partials = [r for r in partials if len(r.audio) <= limit]
        room = self.max_batch - len(batch)
        batch += partials[:room]
        dropped = stale + partials[room:]
        self._queue = finals[self.max_batch :]
        self._stats["asr_partials_dropped"] += len(dropped)
        return batch, dropped

    def _final_waiting(self) -> bool:
        with self._wake:
            return any(r.final and not r.future.cancelled() for r in self._queue)

    def _decode(self, batch: list[_Request]) -> None:
        """Decode a batch; one of partials only is abandoned for a final that comes meanwhile (its transcripts would
        only show words sooner, and a final's user waits for it)."""
        started = time.perf_counter()
        give_up = None if any(r.final for r in batch) else self._final_waiting
        try:
            results = self.transcriber.transcribe_batch([r.audio for r in batch], [r.final for r in batch],
                                                        [r.language for r in batch], give_up=give_up)  # fmt: skip
        except Superseded:
            with self._wake:
                self._stats["asr_partials_dropped"] += len(batch)
            for request in batch:
                _deliver(request, None)
            return
        except Exception as error:  # the sessions get the error; the worker lives on
            logger.exception("ASR batch of %d failed", len(batch))
            for request in batch:
                _deliver(request, error)
            return
        done = time.perf_counter()
        self._last_batch_s = done - started
        self._stats["asr_batches"] += 1
        self._stats["asr_utterances"] += len(batch)
        self._stats["asr_fallbacks"] += sum(result.attempts > 1 for result in results)
        for request, result in zip(batch, results):
            transcript = Transcript(
                text=result.text,
                language=result.language,
                duration_s=len(request.audio) / SAMPLE_RATE,
                asr_s=done - request.submitted,
                batch_size=len(batch),
                attempts=result.attempts,
            )
            _deliver(request, transcript)
