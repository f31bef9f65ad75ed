"""One synthesis worker shared by every session: a priority queue in front of one thread.

Synthesis is CPU-heavy and would stall the event loop, and two syntheses at once on a small CPU only
make both late, so one thread takes jobs one at a time. The first chunk of a reply is what the user
is waiting for (later chunks are synthesised while earlier audio plays), so first chunks of every
session go before later chunks of other replies, in arrival order. Later chunks go by deadline: the
moment their reply's client runs out of audio (its first audio plus all audio made for it since),
so a reply with seconds of speech still to play yields to one about to fall silent; equal deadlines
(chunks of one reply) keep arrival order, and a later chunk with audio still in hand waits while an LLM engine on
the CPU prefills a voice request (``app.cpu_share.EngineWork``). Cancelling a reply (barge-in, disconnect) drops its
queued chunks at once and stops the running one after the piece in progress.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from app.audio import StreamResampler, float32_to_pcm16
from app.cpu_share import speech_activity, engine_work
from app.tts.normalize import normalize_for_speech
from app.tts.synthesizer import WARM_UP_TEXT, SpeechSynthesizer, SynthesisError, create_synthesizer

if TYPE_CHECKING:
    from app.config import Settings
    from app.models.prepare import PreparedModels

logger = logging.getLogger(__name__)

_END = object()  # end of one job's stream
_REMEMBERED_REPLIES = 4096  # cancelled / playing reply ids remembered (oldest forgotten first)
_AUDIO_IN_HAND_S = 0.5  # a later chunk waits for a voice prefill only while its reply keeps this much audio in hand
_HOLD_POLL_S = 0.02
_CHARS_PER_AUDIO_S = 12.0  # speech rate, to guess how long a chunk's synthesis takes before its first one is timed
_FIRST_RTF = 0.2


@dataclass(order=True, unsafe_hash=True)
class _Job:
    rank: int  # 0: first chunk of a reply, 1: a later chunk
    deadline: float  # perf_counter time by which the client needs this audio
    seq: int
    reply_id: str = field(compare=False)
    text: str = field(compare=False)
    out_rate: int = field(compare=False)
    speed: float = field(compare=False)
    deliver: Callable[[object], None] = field(compare=False)  # thread-safe hand-over to the waiting coroutine
    cancelled: bool = field(default=False, compare=False)


class TTSWorker:
    """Shared speech synthesis: ``await start()``, then ``synthesize(...)`` from any session."""

    def __init__(self, synthesizer: SpeechSynthesizer) -> None:
        self.synthesizer = synthesizer
        self._queue: list[_Job] = []
        self._cond = threading.Condition()
        self._seq = itertools.count()
        self._jobs: dict[str, set[_Job]] = {}  # reply id -> its queued or running jobs
        self._cancelled: OrderedDict[str, None] = OrderedDict()
        self._playback: OrderedDict[str, tuple[float, float]] = OrderedDict()  # reply -> (first audio at, audio s)
        self._thread: threading.Thread | None = None
        self._stopping = False
        self._busy = False
        self._audio_s = 0.0
        self._synth_s = 0.0
        self._chunks = 0

    @property
    def changes_speed(self) -> bool:
        return self.synthesizer.changes_speed

    @property
    def sample_rate(self) -> int:
        """The synthesiser's own rate (audio is resampled to each request's ``out_rate``)."""
        return self.synthesizer.sample_rate

    async def start(self) -> None:
        """Start the worker thread; returns once the synthesiser is warm (its first call is the slowest)."""
        if self._thread is not None:
            return
        ready = threading.Event()
        self._stopping = False
        self._thread = threading.Thread(target=self._run, args=(ready,), name="tts-worker", daemon=True)
        self._thread.start()
        await asyncio.to_thread(ready.wait)

    async def stop(self) -> None:
        """Stop the thread (the running job stops after its piece in progress); every open stream ends."""
        with self._cond:
            self._stopping = True
            self._queue = []
            open_jobs = [job for jobs in self._jobs.values() for job in jobs]
            self._jobs.clear()
            for job in open_jobs:
                job.cancelled = True
            self._cond.notify_all()
        for job in open_jobs:
            job.deliver(_END)
        if self._thread is not None:
            await asyncio.to_thread(self._thread.join)
            self._thread = None

    async def synthesize(
        self, text: str, *, reply_id: str, first: bool, out_rate: int, speed: float = 1.0,
    ) -> AsyncIterator[bytes]:
        """Speak one chunk of a reply: PCM16 mono at ``out_rate``, streamed as pieces are synthesised, at ``speed``
        times the voice's rate.

        Ends early (without error) when the reply is cancelled; raises SynthesisError if synthesis fails.
        """
        if out_rate <= 0:
            raise ValueError(f"out_rate must be positive, got {out_rate}")
        if self._thread is None:
            raise RuntimeError("TTSWorker.start() has not been awaited")
        spoken = normalize_for_speech(text)
        if not spoken or reply_id in self._cancelled:
            return
        loop = asyncio.get_running_loop()
        stream: asyncio.Queue[object] = asyncio.Queue()

        def deliver(item: object) -> None:
            try:
                loop.call_soon_threadsafe(stream.put_nowait, item)
            except RuntimeError:  # the listener's event loop has closed: nobody is left to hear it
                job.cancelled = True

        with self._cond:
            now = time.perf_counter()
            started, audio_s = self._playback.get(reply_id, (now, 0.0))
            job = _Job(0 if first else 1, now if first else started + audio_s, next(self._seq), reply_id, spoken,
                       out_rate, speed, deliver)  # fmt: skip
            heapq.heappush(self._queue, job)
            self._jobs.setdefault(reply_id, set()).add(job)
            self._cond.notify()
        try:
            while True:
                item = await stream.get()
                if item is _END or job.cancelled:
                    return
                if isinstance(item, BaseException):
                    raise SynthesisError(f"{self.synthesizer.name} failed on {spoken!r}: {item}") from item
                yield item  # type: ignore[misc]
        finally:
            self._drop(job)  # the caller stopped listening (or the stream ended): nothing more to do for it

    def cancel(self, reply_id: str) -> None:
        """Drop the reply's queued chunks now, stop its running one, and ignore its later chunks."""
        self._cancelled[reply_id] = None
        while len(self._cancelled) > _REMEMBERED_REPLIES:
            self._cancelled.popitem(last=False)
        with self._cond:
            self._playback.pop(reply_id, None)
            jobs = self._jobs.pop(reply_id, set())
            for job in jobs:
                job.cancelled = True
            if jobs:
                self._queue = [job for job in self._queue if not job.cancelled]
                heapq.heapify(self._queue)
        for job in jobs:
            job.deliver(_END)

    def stats(self) -> dict[str, Any]:
        """Flat numbers for the dashboard."""
        with self._cond:
            queued = len(self._queue)
        return {
            "tts_backend": self.synthesizer.name,
            "tts_queued": queued,
            "tts_busy": self._busy,
            "tts_chunks": self._chunks,
            "tts_audio_s": round(self._audio_s, 3),
            "tts_rtf": round(self._synth_s / self._audio_s, 4) if self._audio_s else None,
        }

    def _drop(self, job: _Job) -> None:
        with self._cond:
            if not job.cancelled and job in self._queue:
                self._queue.remove(job)
                heapq.heapify(self._queue)
            job.cancelled = True
            jobs = self._jobs.get(job.reply_id)
            if jobs is not None:
                jobs.discard(job)
                if not jobs:
                    del self._jobs[job.reply_id]

    def _run(self, ready: threading.Event) -> None:
        try:
            for _ in self.synthesizer.synthesize(WARM_UP_TEXT):
                pass
        except Exception:  # a broken synthesiser still reports its error on each real request
            logger.exception("warm-up of %s failed", self.synthesizer.name)
        ready.set()
        while True:
            with self._cond:
                while not self._queue and not self._stopping:
                    self._cond.wait()
                if self._stopping:
                    return
                if engine_work.prefill and self._can_wait(self._queue[0]):
                    self._cond.wait(_HOLD_POLL_S)  # a first token is on its way: this audio can wait
                    continue
                job = heapq.heappop(self._queue)
                self._busy = True
            try:
                with speech_activity.job():
                    self._speak(job)
            finally:
                self._busy = False

    def _can_wait(self, job: _Job) -> bool:
        """A later chunk whose reply has audio enough to play while it waits and is then synthesised (held lock)."""
        rtf = self._synth_s / self._audio_s if self._audio_s else _FIRST_RTF
        synthesis_s = len(job.text) / (_CHARS_PER_AUDIO_S * job.speed) * rtf
        return job.rank > 0 and job.deadline - time.perf_counter() > _AUDIO_IN_HAND_S + synthesis_s

    def _played(self, reply_id: str, seconds: float) -> None:
        """Count audio handed to a reply's client: the first piece starts its playback clock."""
        with self._cond:
            started, audio_s = self._playback.pop(reply_id, (time.perf_counter(), 0.0))
            self._playback[reply_id] = (started, audio_s + seconds)
            while len(self._playback) > _REMEMBERED_REPLIES:
                self._playback.popitem(last=False)

    def _speak(self, job: _Job) -> None:
        """Synthesise one job in this thread, handing each piece over as soon as it exists."""
        started = time.perf_counter()
        resampler = StreamResampler(self.synthesizer.sample_rate, job.out_rate)
        samples = 0
        try:
            for piece in () if job.cancelled else self.synthesizer.synthesize(job.text, job.speed):
                if job.cancelled:
                    break
                samples += len(piece)
                self._played(job.reply_id, len(piece) / self.synthesizer.sample_rate)
                out = resampler.feed(piece)
                if len(out):
                    job.deliver(float32_to_pcm16(out))
            if not job.cancelled:
                tail = resampler.flush()
                if len(tail):
                    job.deliver(float32_to_pcm16(tail))
        except Exception as error:
            logger.warning("%s failed on %r: %s", self.synthesizer.name, job.text, error)
            job.deliver(error)
        finally:
            job.deliver(_END)
            self._chunks += 1
            self._audio_s += samples / self.synthesizer.sample_rate
            self._synth_s += time.perf_counter() - started


def create_worker(settings: Settings, prepared: PreparedModels | None = None) -> TTSWorker:
    """The shared worker for the synthesiser the settings select (not started yet)."""
    worker = TTSWorker(create_synthesizer(settings, prepared))
    logger.info("speech out: %s at %d Hz", worker.synthesizer.name, worker.sample_rate)
    if settings.tts_speed != 1 and not worker.changes_speed:
        logger.warning("%s speaks at one speed only: tts_speed %g is not applied", worker.synthesizer.name, settings.tts_speed)
    return worker
