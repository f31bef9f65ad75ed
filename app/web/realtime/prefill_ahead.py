"""Prefill ahead: while the user speaks, the conversation and their words so far go through the engine.

A reply's prompt is the conversation, the user's words and the template's end. Its prefill is on the path from the
end of speech to the first audio, and on two CPU cores it is most of the engine's share of it when several users
finish talking at once (docs/benchmarks.md). The partial transcripts already say most of the words before the
speech ends, so each one is prefilled as the user's open message (a prefill-only request): by the end of the turn
the engine's prefix cache holds the conversation and all but the last few words, and the reply prefills only
those and the template's end. The last word of a partial is left out, as the audio may cut it; a partial whose
other words differ from the final transcript costs the blocks after the first difference, nothing else.
"""

from __future__ import annotations

import logging
import uuid
from typing import TYPE_CHECKING

from app.engine.api import Priority, SamplingParams

if TYPE_CHECKING:
    from app.web.realtime.session import Session

log = logging.getLogger(__name__)


class PrefillAhead:
    """The session's prefill-only requests of the words said so far: one at a time, none beside a reply."""

    def __init__(self, session: Session):
        self.session = session
        self._words = ""  # the words last prefilled for the speech going on
        self._request_id: str | None = None  # the request in flight

    def words(self, transcript: str) -> None:
        """A partial transcript of the speech going on: prefill its words but the last, unless they were prefilled
        already, one is in flight, the conversation is not yet what the reply will see (a reply runs, or an
        earlier utterance is still in ASR), or the engine serves voice replies (of any session)."""
        session = self.session
        if (not session.settings.prefill_ahead or self._request_id is not None or session.responses.active is not None
                or session.turns.committed or self._voice_in_engine()):
            return
        words = " ".join(transcript.split()[:-1])
        if not words or words == self._words:
            return
        self._words = words
        self._request_id = f"ahead-{uuid.uuid4().hex}"
        session.spawn(self._prefill(words, self._request_id))

    def _voice_in_engine(self) -> bool:
        """Voice replies waiting or running: a prefill now would slow their steps for a gain later (a step is not
        cut short when a reply comes in), and on a loaded engine the reply comes sooner without it."""
        stats = self.session.parts.engine.stats()
        return stats.get("running_voice", 0) + stats.get("waiting_voice", 0) > 0

    async def _prefill(self, words: str, request_id: str) -> None:
        session = self.session
        messages = [*session.responses.prompt(None, None), {"role": "user", "content": words, "prefix": True}]
        try:
            async for delta in session.parts.engine.generate(
                messages=messages, tools=session.responses.session_tool_use().template_tools(),
                params=SamplingParams(max_tokens=1), priority=Priority.TEXT, session_id=session.id,
                request_id=request_id,
            ):  # fmt: skip
                if delta.error:
                    log.debug("prefill ahead in session %s: %s", session.id[:8], delta.error)
        except Exception:
            log.exception("prefill ahead failed in session %s", session.id[:8])
        finally:
            if self._request_id == request_id:
                self._request_id = None

    def new_speech(self) -> None:
        self.stop()
        self._words = ""

    def stop(self) -> None:
        """The speech paused or ended: the reply's own prefill takes over from a request still in flight."""
        if self._request_id is not None:
            self.session.parts.engine.cancel(self._request_id)
            self._request_id = None
