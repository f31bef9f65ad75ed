"""A user who asks in words to be spoken to slower or faster gets it: the session's ``audio.output.speed`` moves a step.

The answer is a note beside the request (``app/answers/notes.py``), as for the other requests the model meets by
habit with a promise: here the promise is kept. Which note a reply gets follows from the session's speed (at the
slowest or fastest it says it cannot go further), and the speed follows from the note its prompt carries, so the
words and the change never disagree. The reply that says it comes at the new speed; the session takes the speed
when that reply is sent (a reply produced ahead of a turn the user then went on with changes nothing).
"""

from __future__ import annotations

from app.answers.notes import (FASTER_AGAIN_START, FASTER_NOTE, FASTEST_NOTE, SLOWER_AGAIN_START, SLOWER_NOTE, SLOWEST_NOTE, Note,
                               newest_user_text)

# the speeds a request in words steps along (the protocol allows 0.25-1.5 to a client; below 0.5 is too slow to ask for in
# two words); a speed between two of them steps to the next in the direction asked, so the steps retrace
SPEEDS = (0.5, 0.65, 0.8, 1.0, 1.25, 1.5)


def _slower(speed: float) -> float | None:
    return next((s for s in reversed(SPEEDS) if s < speed - 1e-6), None)


def _faster(speed: float) -> float | None:
    return next((s for s in SPEEDS if s > speed + 1e-6), None)


def pace_notes(speed: float) -> tuple[Note, Note]:
    """The notes a request to speak slower or faster gets at ``speed``."""
    return (SLOWER_NOTE if _slower(speed) else SLOWEST_NOTE, FASTER_NOTE if _faster(speed) else FASTEST_NOTE)


def asked_speed(messages: list[dict], speed: float) -> float | None:
    """The speed the newest user message of a reply's prompt asks for by its note ("Can you speak slower?", "Say that
    again, slower.", "Say it faster."), from ``speed``; None where it asks none or no step is left that way."""
    content = newest_user_text(messages)
    if content is None:
        return None
    if SLOWER_NOTE.note in content or SLOWER_AGAIN_START in content:
        return _slower(speed)
    return _faster(speed) if FASTER_NOTE.note in content or FASTER_AGAIN_START in content else None
