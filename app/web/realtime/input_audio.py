"""Input audio: ``input_audio_buffer.append|commit|clear`` and binary frames, with backpressure, fed
to the VAD in order; its events (speech started/paused/resumed/stopped, partial audio) go to the turns.

PCM16 is counted against the session's budget before its samples are converted, and converted in slices, so an
append of up to 15 MiB costs a bounded amount of memory; what waits for the VAD is bounded too.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from typing import TYPE_CHECKING

import numpy as np

from app.audio.pcm import pcm16_to_float32
from app.audio.resample import StreamResampler
from app.vad import Endpointer, PartialAudio, SpeechPaused, SpeechResumed, SpeechStarted, SpeechStopped, VadEvent
from app.vad.end_of_turn import WAITS
from app.web.realtime import server_events as ev
from app.web.realtime.client_events import AudioAppend, AudioClear, AudioCommit
from app.web.realtime.session_config import TurnDetection
from app.web.realtime.wire import INPUT_RATE, ProtocolError

if TYPE_CHECKING:
    from app.web.realtime.session import Session

log = logging.getLogger(__name__)

AUDIO_BACKLOG_S = 10.0  # audio waiting for the VAD beyond this (or the audio budget) is refused
SLICE_BYTES = 2 * INPUT_RATE * 5  # an append is decoded and resampled 5 s (at 16 kHz) at a time


class InputAudio:
    """The session's input audio buffer and the loop that runs the VAD over it."""

    def __init__(self, session: Session):
        self.session = session
        self._endpointer: Endpointer | None = None  # made at first use: loading silero takes seconds
        self._resampler: StreamResampler | None = None
        self._queue: asyncio.Queue[tuple[np.ndarray, float]] = asyncio.Queue()
        self._queued_samples = 0
        self._backlog_samples = int(max(AUDIO_BACKLOG_S, session.settings.max_audio_s_per_min) * INPUT_RATE)
        self._stream_clock: deque[tuple[float, float]] = deque(maxlen=2000)  # (stream end s, arrival)
        self._stream_s = 0.0
        self._vad_s = 0.0  # stream seconds the VAD stage handled (fed, or held with turn detection off): a new endpointer's start
        self._manual: list[np.ndarray] = []  # turn detection off: held until commit
        self._task: asyncio.Task | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._loop(), name=f"audio-{self.session.id[:8]}")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    @property
    def endpointer(self) -> Endpointer:
        """The VAD with the session's turn detection settings; with ``semantic_vad`` a pause lasts its eagerness's
        longest wait unless the words said decide sooner (``Turns``)."""
        if self._endpointer is None:
            vad = self.session.config.turn_detection or self.session.default_vad
            silence_ms = WAITS[vad.eagerness].longest_ms if vad.type == "semantic_vad" else vad.silence_duration_ms
            self._endpointer = Endpointer(self.session.settings.model_copy(update={
                "vad_silence_ms": silence_ms, "vad_threshold": vad.threshold, "vad_preroll_ms": vad.prefix_padding_ms,
            }), start_s=self._vad_s)  # fmt: skip
        return self._endpointer

    def reconfigure(self, old: TurnDetection | None, new: TurnDetection | None, rate_changed: bool) -> None:
        """After ``session.update``: a new endpointer when the VAD settings changed."""
        def vad_settings(vad: TurnDetection) -> tuple:
            return vad.type, vad.eagerness, vad.silence_duration_ms, vad.threshold, vad.prefix_padding_ms

        if new is not None and (old is None or vad_settings(old) != vad_settings(new)):
            self._endpointer = None
        if rate_changed:
            self._resampler = None

    # ------------------------------------------------------------------ input

    def binary_frame(self, frame: bytes) -> None:
        """A binary frame: PCM16 mono 16 kHz."""
        if len(frame) % 2:
            raise ProtocolError("invalid_audio", f"binary audio frame has an odd length ({len(frame)} bytes)")
        if self._admit(len(frame) // 2 / INPUT_RATE):
            for start in range(0, len(frame), SLICE_BYTES):
                self._queue_audio(pcm16_to_float32(frame[start : start + SLICE_BYTES]))

    async def append(self, event: AudioAppend) -> None:
        rate = self.session.config.input_rate
        if not self._admit(len(event.pcm16) // 2 / rate):
            return
        if self._resampler is None:
            self._resampler = StreamResampler(rate, INPUT_RATE)
        step = SLICE_BYTES * rate // INPUT_RATE
        for start in range(0, len(event.pcm16), step):
            self._queue_audio(self._resampler.feed(pcm16_to_float32(event.pcm16[start : start + step])))

    def _admit(self, seconds: float) -> bool:
        """The session's audio budget and the VAD backlog, checked before any sample is converted."""
        settings = self.session.settings
        if not self.session.limits.audio.allow(seconds):
            if self.session.limits.should_report("audio_rate_exceeded"):
                limit = settings.max_audio_s_per_min
                self.session.error(ProtocolError("audio_rate_exceeded", f"over {limit:g} s of audio per minute; audio dropped"))
            return False
        if self._queued_samples + seconds * INPUT_RATE > self._backlog_samples:
            self.session.error(ProtocolError("audio_buffer_full", "audio arrives faster than real time; frame dropped"))
            return False
        return True

    def _queue_audio(self, audio: np.ndarray) -> None:
        if len(audio):
            self._queued_samples += len(audio)
            self._queue.put_nowait((audio, time.perf_counter()))

    async def commit(self, event: AudioCommit) -> None:
        """``input_audio_buffer.commit``: end the user turn now."""
        if self.session.config.turn_detection is None:
            audio = np.concatenate(self._manual) if self._manual else np.zeros(0, np.float32)
            self._manual = []
            if not len(audio):
                raise ProtocolError("empty_input", "the input audio buffer is empty")
            self.session.turns.commit_manual(audio)
            return
        events = self.endpointer.flush()
        if not events:
            raise ProtocolError("empty_input", "no speech in the input audio buffer")
        for vad_event in events:
            await self._on_vad(vad_event)

    async def clear(self, event: AudioClear) -> None:
        self._manual = []
        self.endpointer.reset()
        self.session.turns.speech_cleared()
        self.session.send(ev.audio_cleared())

    # ------------------------------------------------------------------ the VAD loop

    async def _loop(self) -> None:
        """Feeds queued audio to the VAD (off the event loop) and acts on its events, in order."""
        session = self.session
        while True:
            chunks = [await self._queue.get()]
            while not self._queue.empty():
                chunks.append(self._queue.get_nowait())
            for chunk, stamp in chunks:
                self._stream_s += len(chunk) / INPUT_RATE
                self._stream_clock.append((self._stream_s, stamp))
            pcm = np.concatenate([chunk for chunk, _ in chunks])
            self._queued_samples -= len(pcm)
            if session.config.turn_detection is None:
                self._hold(pcm)
                self._vad_s += len(pcm) / INPUT_RATE
                continue
            async with session.lock:  # commit and clear use the endpointer too
                try:
                    if self._endpointer is None:
                        await asyncio.to_thread(lambda: self.endpointer)  # loads silero off the loop
                    endpointer = self.endpointer
                    self._vad_s += len(pcm) / INPUT_RATE  # counted even if the VAD fails on it: the audio went by
                    endpointer.speaking = session.responses.assistant_audible()
                    events = await asyncio.to_thread(endpointer.feed, pcm)
                except Exception:
                    log.exception("VAD failed in session %s", session.id[:8])
                    session.error(ProtocolError("stage_failed", "voice activity detection failed; audio dropped"))
                    continue
                for vad_event in events:
                    try:
                        await self._on_vad(vad_event)
                    except Exception:
                        log.exception("handling %s failed in session %s", type(vad_event).__name__, session.id[:8])
                        session.error(ProtocolError("internal_error", "the server failed to handle your speech"))

    def _hold(self, pcm: np.ndarray) -> None:
        held = sum(len(a) for a in self._manual)
        if held + len(pcm) > self.session.settings.max_utterance_s * INPUT_RATE:
            self.session.error(ProtocolError("audio_buffer_full", "input audio buffer is full; commit or clear it"))
            return
        self._manual.append(pcm)

    async def _on_vad(self, event: VadEvent) -> None:
        turns = self.session.turns
        if isinstance(event, SpeechStarted):
            await turns.speech_started(event)
        elif isinstance(event, PartialAudio):
            turns.partial_audio(event.audio)
        elif isinstance(event, SpeechPaused):
            turns.speech_paused(event)
        elif isinstance(event, SpeechResumed):
            turns.discard_speculative()
        elif isinstance(event, SpeechStopped):
            turns.speech_stopped(event, self.wall_time(event.end_s))

    def wall_time(self, stream_s: float) -> float:
        """When the client's audio at stream time ``stream_s`` arrived here (perf_counter)."""
        for end_s, arrived in self._stream_clock:
            if end_s >= stream_s:
                return arrived
        return time.perf_counter()
