"""Events an Endpointer emits. Times are seconds of the session's 16 kHz input stream."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass(eq=False)
class VadEvent:
    at_s: float  # stream time at which the event was detected (the end of the frame that decided it)


@dataclass(eq=False)
class SpeechStarted(VadEvent):
    """Speech has lasted long enough to count (min speech, or the barge-in minimum while speaking)."""

    start_s: float  # where the speech began (the pre-roll lies before it)


@dataclass(eq=False)
class SpeechPaused(VadEvent):
    """Silence has lasted ``vad_pause_ms``: the point to start speculative ASR on ``audio``.

    If SpeechStopped follows without a SpeechResumed in between, its audio is this same audio.
    """

    audio: np.ndarray = field(repr=False)


@dataclass(eq=False)
class SpeechResumed(VadEvent):
    """Speech came back after a SpeechPaused: discard whatever was started speculatively."""


@dataclass(eq=False)
class SpeechStopped(VadEvent):
    """End of an utterance: ``audio`` is the utterance with its pre-roll and ``vad_pause_ms`` of trailing silence.

    ``cut`` is True when the utterance reached ``max_utterance_s`` and was cut; the speech goes on in a
    new utterance (a SpeechStarted follows at once).
    """

    audio: np.ndarray = field(repr=False)
    start_s: float
    end_s: float  # where the speech ended (silence began, or the cut point)
    cut: bool = False


@dataclass(eq=False)
class PartialAudio(VadEvent):
    """The utterance so far (with pre-roll), every ``partial_interval_ms`` while the user speaks."""

    audio: np.ndarray = field(repr=False)
