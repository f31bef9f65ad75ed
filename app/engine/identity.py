"""What the assistant is, written beside a question that asks whether it is a person.

Asked "Are you human?" or "Am I talking to a real person?", the 1.5B says "Yes", as the people in its training's
conversations did, whatever the system prompt calls it. A sentence of the system prompt saying it is a program
changed the answer to one such question in four, and an example answer, which fixed them all, was copied onto other
questions and kept the page's clock uncalled; the same fact written beside the question, as a statement, still got
"Yes" (docs/benchmarks.md, "Not a person"). So the note beside the question is the answer to give, which the model
says, and no other reply sees it. ``with_identity_hint`` adds it to the newest user message of a reply's prompt on
the server's own system prompt (a client's instructions may give the assistant a character of their own); the
conversation keeps the user's words. The patterns know the common forms only; a question they miss is answered as
before.
"""

from __future__ import annotations

import re

_KIND = r"(?:(?:real|actual|living|live|human) )*(?:person|human(?: being)?|robot|machine|bot|computer|program|ai)"
_SOMEONE = rf"(?:(?:a|an) )?{_KIND}|(?:a|an) (?:man|woman|guy|girl)"
_END = (r"(?=\s*(?:$|[?.!,;]|or\b|(?:right )?now\b|at all\b|really\b|too\b|though\b|honestly\b|i can talk to\b"
        r"|(?:i'm|i am) (?:talking|speaking|chatting)\b))")  # what may follow the word: the question ends there
_ASKS = re.compile(
    rf"\b(?:are|r) (?:you|u) (?:really |actually |even |just )?(?:{_SOMEONE}|alive|real|conscious|sentient"
    rf"|(?:a|an) (?:living|conscious) (?:being|thing)){_END}"  # "Are you human?"
    rf"|\b(?:am i|are we|i am|i'm) (?:really |actually |even )?(?:talking|speaking|chatting) (?:to|with) (?:{_SOMEONE}){_END}"
    rf"|\bis (?:this|that) (?:a|an) {_KIND}{_END}"  # "Is this a real person?"
    rf"|\bis there (?:a|an) (?:(?:real|actual|live) )*(?:person|human(?: being)?)(?: there)?{_END}"  # "... I can talk to?"
    rf"|\bdo (?:you|u) (?:have|feel) (?:a (?:real |human )?body|feelings|emotions){_END}"
    r"|\bwhere do (?:you|u) live\b",
    re.I,
)
_HINT = "\n\n(Answer: \"I'm not a person, I'm a voice assistant: a computer program on this computer.\")"


def asks_what_it_is(text: str) -> bool:
    """Whether a user's message asks whether the assistant is a person (or a machine, or where it lives)."""
    return _ASKS.search(" ".join(text.replace("’", "'").split())) is not None


def with_identity_hint(messages: list[dict]) -> list[dict]:
    """``messages`` with what the assistant is added to the last one when it is a user message asking so."""
    if not messages or messages[-1].get("role") != "user" or not isinstance(messages[-1].get("content"), str):
        return messages
    if not asks_what_it_is(messages[-1]["content"]):
        return messages
    return [*messages[:-1], {**messages[-1], "content": messages[-1]["content"] + _HINT}]


def without_identity_hint(content: str) -> str:
    """A user message's content without the note ``with_identity_hint`` added."""
    return content.removesuffix(_HINT)
