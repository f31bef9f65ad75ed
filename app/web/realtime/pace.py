"""A user who asks in words to be spoken to slower or faster gets it: the session's ``audio.output.speed`` moves a step.

The answer is a note beside the request (``app/engine/notes.py``), as for the other requests the model meets by
habit with a promise: here the promise is kept. Which note a reply gets follows from the session's speed (at the
slowest or fastest it says it cannot go further), and the speed follows from the note its prompt carries, so the
words and the change never disagree. The reply that says it comes at the new speed; the session takes the speed
when that reply is sent (a reply produced ahead of a turn the user then went on with changes nothing).
"""

from __future__ import annotations

from app.engine.notes import FASTER_NOTE, FASTEST_NOTE, SLOWER_AGAIN_START, SLOWER_NOTE, SLOWEST_NOTE, Note
from app.web.realtime.session_config import MAX_SPEED

STEP = 1.25  # one request's change: 1 -> 0.8 -> 0.64 -> 0.51, 1 -> 1.25 -> 1.5
SLOWEST_ASKED = 0.5  # the protocol allows 0.25, a rate a client may choose, and too slow to ask for in two words


def pace_notes(speed: float) -> tuple[Note, Note]:
    """The notes a request to speak slower or faster gets at ``speed``."""
    return (SLOWEST_NOTE if speed <= SLOWEST_ASKED else SLOWER_NOTE, FASTEST_NOTE if speed >= MAX_SPEED else FASTER_NOTE)


def asked_step(messages: list[dict]) -> int:
    """-1 where the newest user message of a reply's prompt asks (by its note) to speak slower, 1 faster, else 0."""
    content = messages[-1].get("content") if messages and messages[-1].get("role") == "user" else None
    if not isinstance(content, str):
        return 0
    if SLOWER_NOTE.note in content or SLOWER_AGAIN_START in content:  # "Say that again, slower." too
        return -1
    return 1 if FASTER_NOTE.note in content else 0


def stepped(speed: float, step: int) -> float:
    """``speed`` moved ``step`` steps, within the range a request may ask for."""
    if step == 0:
        return speed
    return round(min(max(speed * STEP**step, SLOWEST_ASKED), MAX_SPEED), 2)
