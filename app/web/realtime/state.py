"""The session's state: one enum and the transitions allowed between its values, checked on every move.

IDLE -> LISTENING (speech starts) -> THINKING (the turn is committed: ASR, then the reply's first
token) -> SPEAKING (the reply's first output reached the socket) -> IDLE (the reply is over and its
audio has played). Barge-in is SPEAKING/THINKING -> LISTENING; CLOSED is final.
"""

from __future__ import annotations

from enum import Enum


class SessionState(str, Enum):
    IDLE = "idle"
    LISTENING = "listening"
    THINKING = "thinking"
    SPEAKING = "speaking"
    CLOSED = "closed"


S = SessionState
TRANSITIONS: dict[SessionState, frozenset[SessionState]] = {
    S.IDLE: frozenset({S.LISTENING, S.THINKING, S.CLOSED}),  # speech starts; a typed turn or response.create
    S.LISTENING: frozenset({S.IDLE, S.THINKING, S.SPEAKING, S.CLOSED}),  # cleared; committed; a reply the user
    # talked over without interrupting goes on
    S.THINKING: frozenset({S.IDLE, S.LISTENING, S.SPEAKING, S.CLOSED}),  # nothing to say; barge-in; first output
    S.SPEAKING: frozenset({S.IDLE, S.LISTENING, S.THINKING, S.CLOSED}),  # played out; barge-in; the next reply
    S.CLOSED: frozenset(),
}


class IllegalTransition(RuntimeError):
    """A move the table does not allow: a bug in the turn logic, reported as an internal error."""


class StateMachine:
    """Holds the state; ``move`` checks each change against :data:`TRANSITIONS`."""

    def __init__(self) -> None:
        self.state = S.IDLE

    def move(self, to: SessionState) -> None:
        if to is self.state:
            return
        if to not in TRANSITIONS[self.state]:
            raise IllegalTransition(f"{self.state.value} -> {to.value} is not a transition of a session")
        self.state = to

    def is_(self, *states: SessionState) -> bool:
        return self.state in states
