"""Per-session endpointing: turns a 16 kHz stream into speech start / pause / stop events.

Works on silero-vad's 32 ms frames with hysteresis: a frame at or above ``vad_threshold`` is speech,
one below ``vad_threshold - 0.15`` is silence, and one in between continues whatever was going on.
"""

from __future__ import annotations

from collections import deque

import numpy as np

from app.config import Settings
from app.vad.events import PartialAudio, SpeechPaused, SpeechResumed, SpeechStarted, SpeechStopped, VadEvent
from app.vad.silero import FRAME, SAMPLE_RATE, SileroStream

FRAME_MS = 1000 * FRAME / SAMPLE_RATE
_HYSTERESIS = 0.15
_START_GAP_MS = 160  # silence that abandons speech not yet long enough to count
_CUT_SEARCH_S = 2.0  # a long utterance is cut at the quietest frame of its last seconds


def _frames(ms: float) -> int:
    return max(1, int(round(ms / FRAME_MS)))


class Endpointer:
    """Feed it audio of any chunk size; it returns the events each chunk completed.

    ``speaking`` (settable at any time) is the echo guard: while the assistant's audio plays, speech
    must last ``bargein_min_speech_ms`` instead of ``vad_min_speech_ms`` before SpeechStarted.
    Event times are stream seconds from ``start_s`` (where in a session's audio this endpointer took over), and
    keep running across :meth:`reset` and :meth:`flush`.
    """

    def __init__(self, settings: Settings, *, speaking: bool = False, start_s: float = 0.0) -> None:
        self.speaking = speaking
        self._start_s = start_s
        self._frame_index = 0  # frames processed so far
        self._threshold = settings.vad_threshold
        self._silence_threshold = max(0.01, settings.vad_threshold - _HYSTERESIS)
        self._stop_frames = self._default_stop_frames = _frames(settings.vad_silence_ms)
        self._pause_frames = min(_frames(settings.vad_pause_ms), self._stop_frames)
        self._min_speech_frames = _frames(settings.vad_min_speech_ms)
        self._bargein_frames = _frames(settings.bargein_min_speech_ms)
        self._preroll_frames = int(round(settings.vad_preroll_ms / FRAME_MS))
        self._max_frames = max(_frames(settings.max_utterance_s * 1000), self._stop_frames + 1)
        self._partial_frames = _frames(settings.partial_interval_ms) if settings.partial_interval_ms > 0 else 0
        self._vad = SileroStream()
        self.reset()

    @property
    def in_speech(self) -> bool:
        """True between SpeechStarted and SpeechStopped."""
        return self._in_speech

    def end_pause_after(self, silence_ms: float) -> None:
        """The silence that ends the current pause (semantic end of turn: the words said so far decide it); speech
        that resumes, and the next utterance, wait ``vad_silence_ms`` again. A pause already that long ends at the
        next frame."""
        self._stop_frames = _frames(silence_ms)

    def reset(self) -> None:
        """Drop any speech in progress and the VAD state (e.g. after the client clears its input)."""
        self._vad.reset()
        self._leftover = np.zeros(0, dtype=np.float32)
        self._recent: deque[np.ndarray] = deque()  # frames before speech counts: pre-roll + candidate
        self._candidate_start: int | None = None  # frame index where not-yet-confirmed speech began
        self._candidate_voiced = 0
        self._candidate_gap = 0
        self._in_speech = False
        self._utterance: list[np.ndarray] = []
        self._probs: list[float] = []
        self._start_frame = 0  # frame index of the utterance's first frame (pre-roll included)
        self._speech_start = 0  # frame index where its speech began
        self._silence_run = 0
        self._paused_at: int | None = None  # utterance length (frames) when SpeechPaused was sent
        self._since_partial = 0

    def feed(self, pcm: np.ndarray) -> list[VadEvent]:
        """Process float32 16 kHz mono samples; returns the events they completed, in order."""
        samples = np.concatenate([self._leftover, np.asarray(pcm, dtype=np.float32).reshape(-1)])
        usable = len(samples) - len(samples) % FRAME
        self._leftover = samples[usable:]
        events: list[VadEvent] = []
        for offset in range(0, usable, FRAME):
            frame = samples[offset : offset + FRAME]
            probability = self._vad.probability(frame)
            self._frame_index += 1
            if self._in_speech:
                self._speech_frame(frame, probability, events)
            else:
                self._quiet_frame(frame, probability, events)
        return events

    def flush(self) -> list[VadEvent]:
        """End the stream: an utterance in progress stops now (its SpeechStopped is returned)."""
        events: list[VadEvent] = []
        if self._in_speech:
            length = self._paused_at if self._paused_at is not None else len(self._utterance)
            end = self._frame_index - self._silence_run
            events.append(self._stop(length, end_frame=end, cut=False))
        self.reset()
        return events

    # --- frame handling ---

    def _time(self, frame_index: int) -> float:
        return self._start_s + frame_index * FRAME / SAMPLE_RATE

    def _quiet_frame(self, frame: np.ndarray, probability: float, events: list[VadEvent]) -> None:
        self._recent.append(frame)
        frame_no = self._frame_index - 1
        if self._candidate_start is None:
            if probability >= self._threshold:
                self._candidate_start, self._candidate_voiced, self._candidate_gap = frame_no, 1, 0
            else:
                while len(self._recent) > self._preroll_frames:
                    self._recent.popleft()
                return
        elif probability >= self._threshold:
            self._candidate_voiced += 1
            self._candidate_gap = 0
        elif probability < self._silence_threshold:
            self._candidate_gap += 1
            if self._candidate_gap >= _frames(_START_GAP_MS):
                self._candidate_start = None
                while len(self._recent) > self._preroll_frames:
                    self._recent.popleft()
                return
        needed = self._bargein_frames if self.speaking else self._min_speech_frames
        if self._candidate_voiced >= needed:
            self._begin(speech_start=self._candidate_start, events=events)

    def _begin(self, speech_start: int, events: list[VadEvent]) -> None:
        """Confirm speech: the utterance is the pre-roll plus everything since speech began."""
        keep = self._frame_index - speech_start + self._preroll_frames
        frames = list(self._recent)[-keep:]
        self._utterance = frames
        self._probs = [1.0] * len(frames)
        self._start_frame = self._frame_index - len(frames)
        self._speech_start = speech_start
        self._in_speech = True
        self._recent.clear()
        self._candidate_start = None
        self._silence_run = 0
        self._paused_at = None
        self._since_partial = 0
        self._stop_frames = self._default_stop_frames
        events.append(SpeechStarted(at_s=self._time(self._frame_index), start_s=self._time(speech_start)))

    def _speech_frame(self, frame: np.ndarray, probability: float, events: list[VadEvent]) -> None:
        self._utterance.append(frame)
        self._probs.append(probability)
        now = self._time(self._frame_index)
        if probability >= self._threshold:
            self._silence_run = 0
            if self._paused_at is not None:
                self._paused_at = None
                self._stop_frames = self._default_stop_frames
                events.append(SpeechResumed(at_s=now))
        elif probability < self._silence_threshold or self._silence_run:
            self._silence_run += 1

        if self._silence_run >= self._pause_frames and self._paused_at is None:
            self._paused_at = len(self._utterance)
            events.append(SpeechPaused(at_s=now, audio=np.concatenate(self._utterance)))
        if self._silence_run >= self._stop_frames:
            events.append(self._stop(self._paused_at, end_frame=self._frame_index - self._silence_run, cut=False))
            self._recent.extend(self._utterance[-self._preroll_frames :] if self._preroll_frames else [])
            self._finish_utterance()
            return
        if len(self._utterance) >= self._max_frames:
            self._cut(events)
            return
        if self._partial_frames and self._paused_at is None:
            self._since_partial += 1
            if self._since_partial >= self._partial_frames:
                self._since_partial = 0
                events.append(PartialAudio(at_s=now, audio=np.concatenate(self._utterance)))

    def _cut(self, events: list[VadEvent]) -> None:
        """Cut a too-long utterance at its quietest recent frame; the speech after it goes on as a new one."""
        if self._paused_at is not None:  # already in a pause: just end here
            events.append(self._stop(self._paused_at, end_frame=self._frame_index - self._silence_run, cut=False))
            self._finish_utterance()
            return
        search = min(len(self._probs) - 1, int(_CUT_SEARCH_S * SAMPLE_RATE / FRAME))
        tail = np.asarray(self._probs[-search:])
        cut_at = len(self._probs) - search + int(np.argmin(tail)) + 1  # frames kept in this piece
        rest, rest_probs = self._utterance[cut_at:], self._probs[cut_at:]
        events.append(self._stop(cut_at, end_frame=self._start_frame + cut_at, cut=True))
        self._start_frame += cut_at
        self._speech_start = self._start_frame
        self._utterance, self._probs = rest, rest_probs
        self._silence_run, self._since_partial = 0, 0
        events.append(SpeechStarted(at_s=self._time(self._frame_index), start_s=self._time(self._speech_start)))

    def _stop(self, length: int | None, *, end_frame: int, cut: bool) -> SpeechStopped:
        frames = self._utterance[:length] if length is not None else self._utterance
        return SpeechStopped(
            at_s=self._time(self._frame_index),
            audio=np.concatenate(frames) if frames else np.zeros(0, dtype=np.float32),
            start_s=self._time(self._speech_start),
            end_s=self._time(end_frame),
            cut=cut,
        )

    def _finish_utterance(self) -> None:
        self._in_speech = False
        self._utterance, self._probs = [], []
        self._silence_run = 0
        self._paused_at = None
