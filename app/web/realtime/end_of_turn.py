"""``semantic_vad``: at a pause, the words said so far decide how much silence ends the turn.

The speculative turn's transcript of the pause is scored (``app/vad/end_of_turn.py``: how likely the user's
message ends there) and the VAD's wait for this pause is set from it by the session's eagerness: a short one when
the words end a thought, up to the eagerness's longest when they do not ("and ...", "um", an unfinished clause).
Until the score is in, the pause waits the longest; where there is no score (no words, no speculative turn, the
engine failed) it waits the server VAD's silence.

The score comes from the speculative reply's own prefill where there is one (``SamplingParams.token_probs_at``:
the same end tokens, read after the transcript's words less their trailing punctuation), so a pause costs the
engine no request beyond the reply that server_vad starts there too; where there is none (no reply to start, or
the engine could not read it) the scorer asks a prefill-only request of its own.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

from app.vad.end_of_turn import silence_ms

if TYPE_CHECKING:
    from app.web.realtime.session import Session
    from app.web.realtime.turns import VoiceTurn

log = logging.getLogger(__name__)


class SemanticEndOfTurn:
    """The session's semantic end-of-turn judge."""

    def __init__(self, session: Session):
        self.session = session

    @property
    def active(self) -> bool:
        vad = self.session.config.turn_detection
        return vad is not None and vad.type == "semantic_vad" and self.session.parts.end_of_turn is not None

    def end_ids(self) -> tuple[int, ...]:
        """The tokens whose probabilities after the words make the score (a reply's prefill reads them too)."""
        assert self.session.parts.end_of_turn is not None
        return self.session.parts.end_of_turn.end_ids

    def without_words(self) -> None:
        """A pause with nothing to score (called under the lock): the server VAD's silence ends it."""
        self.session.audio_in.endpointer.end_pause_after(self.session.default_vad.silence_duration_ms)

    async def judge(self, turn: VoiceTurn, text: str) -> None:
        """Score the pause's words and set the silence that ends it, if ``turn`` is still the pause's turn."""
        session, scorer = self.session, self.session.parts.end_of_turn
        assert scorer is not None and session.config.turn_detection is not None
        started = time.perf_counter()
        score = None
        if session.turns.speculative is not turn:
            log.debug("end of turn %r: words came after the pause ended (%s)", _last_words(text),
                      "committed" if turn.committed.is_set() else "speech resumed")  # fmt: skip
            return
        source = "nothing"  # what gave the score: no words, no score
        if text:
            try:
                probed = await turn.reply.probed() if turn.reply is not None else None
                if probed:
                    source, score = "the reply", scorer.probability(probed)
                elif session.turns.speculative is turn:
                    source = "its own request"
                    score = await scorer.score(session.responses.prompt(None, None, hints=False), text, session_id=session.id,
                                               tools=session.responses.session_tool_use().template_tools())  # fmt: skip
            except Exception:
                log.exception("end-of-turn score failed in session %s", session.id[:8])
        eagerness = session.config.turn_detection.eagerness
        wait = session.default_vad.silence_duration_ms if score is None else silence_ms(score, eagerness)
        async with session.lock:
            in_time = session.turns.speculative is turn  # else the user talked on, or the longest wait ended the turn
            if in_time:
                session.audio_in.endpointer.end_pause_after(wait)
        log.debug("end of turn %r: score %s, wait %d ms (scored by %s in %.0f ms%s)", _last_words(text), score, wait, source,
                  (time.perf_counter() - started) * 1000, "" if in_time else ", after the pause ended")  # fmt: skip


def _last_words(text: str, most: int = 40) -> str:
    """The end of a long transcript for a log line, marked as cut ("What is the ..." would read as "at is the ...")."""
    return text if len(text) <= most else "..." + text[-most:].split(" ", 1)[-1]
