"""Who yields the cores to whom: the speech stages at work right now, so the LLM engine can leave them a core, and
the voice work in the engine, which speech work that can wait leaves alone.

On a small CPU the engine's threads and a speech stage's threads compete for the same cores. A
speech job the user is waiting for (the transcript of a finished turn, the first clause of a reply)
is on the critical path, while the engine is often producing text far ahead of playback; so while
such a job runs, the engine steps on fewer threads. Other speech work (partial transcripts, later
clauses) does not count: under sustained load it would keep the engine on fewer threads for good;
it waits for the engine's voice work instead (:class:`VoiceWork`).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass


class SpeechActivity:
    """A count of urgent speech jobs running now, thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._jobs = 0

    @contextmanager
    def job(self, urgent: bool = True) -> Iterator[None]:
        """Counts the job while it runs if it is ``urgent`` (the user is waiting for it)."""
        if not urgent:
            yield
            return
        with self._lock:
            self._jobs += 1
        try:
            yield
        finally:
            with self._lock:
                self._jobs -= 1

    @property
    def jobs(self) -> int:
        return self._jobs


speech_activity = SpeechActivity()


@dataclass
class VoiceWork:
    """The voice work an LLM engine on the CPU holds, as of its latest step (it says so every step; an engine on a
    GPU shares no cores with speech work and says nothing).

    ``prefill``: a voice request has no first token yet. That prefill is on a user's critical path, and a speech job
    beside it on two cores slows it down (the engine's threads wait for one another at every op); so speech work that
    can wait (a later clause whose reply still has audio to play) waits until the prefill is done.
    ``replies``: voice requests are waiting or running. Partial transcripts, which only show the words sooner (and
    feed the prefill ahead, which stops then too), are not made while they are: with several users talking, their
    ASR took a core from the replies others were waiting for most of the time (docs/benchmarks.md).
    """

    prefill: bool = False
    replies: bool = False


voice_work = VoiceWork()
