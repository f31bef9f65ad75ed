"""Which speech stages are at work right now, so the LLM engine can leave them a core.

On a small CPU the engine's threads and a speech stage's threads compete for the same cores. The
speech stage is on the user's critical path (the transcript of a finished turn, the first clause to
speak), while the engine is often producing text far ahead of playback; so while ASR or TTS works,
the engine runs its steps on fewer threads.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager


class SpeechActivity:
    """A count of speech jobs running now (ASR batches, TTS chunks), thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._jobs = 0

    @contextmanager
    def job(self) -> Iterator[None]:
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
