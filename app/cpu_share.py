"""Who yields the cores to whom: the speech stages at work right now, so the LLM engine can leave them a core, and
the work in the engine, which speech work that can wait leaves alone and a synthesis takes one core beside.

On a small CPU the engine's threads and a speech stage's threads compete for the same cores, and an engine step
on two threads beside a busy core is no faster than on one: each of its OpenMP regions waits for the thread that lost
its core (docs/benchmarks.md). So while a speech job that counts runs, the engine steps on fewer threads: the
transcript of a finished turn, which the user is waiting for, and every synthesis. Partial
transcripts do not count: with several users talking they would keep the engine on fewer threads for good; they
wait for the engine's voice work instead (:class:`EngineWork`), as later clauses wait for its voice prefills. For the
same reason a synthesis runs on one thread while the engine decodes several users' spoken replies: beside the engine's
one thread, piper's two made both slower than piper's one.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass


class SpeechActivity:
    """A count of the speech jobs running now that the engine leaves a core to, thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._jobs = 0

    @contextmanager
    def job(self, urgent: bool = True) -> Iterator[None]:
        """Counts the job while it runs if it is ``urgent`` (which jobs are: the module's docstring)."""
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
class EngineWork:
    """The work an LLM engine on the CPU holds, as of its latest step (it says so every step; an engine on a GPU
    shares no cores with speech work and says nothing).

    ``voice_replies``: how many voice requests are waiting or running. With more than one, the other users' replies
    are on their paths too, and a synthesis takes one core beside them; with one at most (most often the reply being
    spoken, decoding its rest) its user waits for the synthesis, on two.
    ``prefill``: a voice request has no first token yet. That prefill is on a user's critical path, and a speech job
    beside it on two cores slows it down (the engine's threads wait for one another at every op); so speech work that
    can wait (a later clause whose reply still has audio to play) waits until the prefill is done.
    ``replies``: any voice request is waiting or running. Partial transcripts, which only show the words sooner (and
    feed the prefill ahead, which stops then too), are not made while they are: with several users talking, their
    ASR took a core from the replies others were waiting for most of the time (docs/benchmarks.md).
    """

    voice_replies: int = 0
    prefill: bool = False

    @property
    def replies(self) -> bool:
        return self.voice_replies > 0


engine_work = EngineWork()
