"""Answers the model gets wrong by habit, written beside the question that asks them.

Asked "Are you human?" or "Is it the weekend?", the 1.5B says "Yes", as the people in its training's conversations
did, whatever the system prompt says it is or cannot see. A sentence of the system prompt saying it is a program
changed the answer to one such question in four, and an example answer, which fixed them all, was copied onto other
questions and kept the page's clock uncalled; the same fact written beside the question, as a statement, still got
"Yes" (docs/benchmarks.md, "Not a person"). So a note beside the question, as a spelling question gets its word's
letters, gives the answer to say; the model says it, and no other reply sees it. A :class:`Note` adds it to the
newest user message of a reply's prompt; the conversation keeps the user's words. The patterns know the common forms
only; a question they miss is answered as before.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.engine.spelling import without_spelling_hint


@dataclass(frozen=True)
class Note:
    """The answer to give (``text``) to the questions ``asks`` finds."""

    asks: re.Pattern[str]
    text: str

    def finds(self, question: str) -> bool:
        return self.asks.search(" ".join(question.replace("’", "'").split())) is not None

    def add(self, messages: list[dict]) -> list[dict]:
        """``messages`` with the note added to the last one when it is a user's whole message that asks (once)."""
        last = messages[-1] if messages else {}
        if last.get("role") != "user" or last.get("prefix") or not isinstance(last.get("content"), str):
            return messages
        if self.note in last["content"] or not self.finds(last["content"]):
            return messages
        return [*messages[:-1], {**last, "content": last["content"] + self.note}]

    @property
    def note(self) -> str:
        return f'\n\n(Answer: "{self.text}")'


def user_words(content: str) -> str:
    """A user message's own words, without the notes the server added (the answers, a word's letters): where the
    end-of-turn score is read, after the words the user said."""
    for note in (CLOCK_NOTE, PERSON_NOTE):  # the last added first
        content = content.removesuffix(note.note)
    return without_spelling_hint(content)


_KIND = r"(?:(?:real|actual|living|live|human) )*(?:person|human(?: being)?|robot|machine|bot|computer|program|ai)"
_SOMEONE = rf"(?:(?:a|an) )?{_KIND}|(?:a|an) (?:man|woman|guy|girl)"
_END = (r"(?=\s*(?:$|[?.!,;]|or\b|(?:right )?now\b|at all\b|really\b|too\b|though\b|honestly\b|i can talk to\b"
        r"|(?:i'm|i am) (?:talking|speaking|chatting)\b))")  # what may follow the word: the question ends there
_PERSON_QUESTION = re.compile(
    rf"\b(?:are|r) (?:you|u) (?:really |actually |even |just )?(?:{_SOMEONE}|alive|real|conscious|sentient"
    rf"|(?:a|an) (?:living|conscious) (?:being|thing)){_END}"  # "Are you human?"
    rf"|\b(?:am i|are we|i am|i'm) (?:really |actually |even )?(?:talking|speaking|chatting) (?:to|with) (?:{_SOMEONE}){_END}"
    rf"|\bis (?:this|that) (?:a|an) {_KIND}{_END}"  # "Is this a real person?"
    rf"|\bis there (?:a|an) (?:(?:real|actual|live) )*(?:person|human(?: being)?)(?: there)?{_END}"  # "... I can talk to?"
    rf"|\bdo (?:you|u) (?:have|feel) (?:a (?:real |human )?body|feelings|emotions){_END}"
    r"|\bwhere do (?:you|u) live\b",
    re.I,
)
_DAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
_WHEN = rf"(?:the weekend|a weekday|a workday|a work day|a school day|a holiday|{_DAY}|morning|afternoon|evening|night|daytime)"
_NOW = r"(?=\s*(?:$|[?.!,;]|or\b|yet\b|today\b|(?:right )?now\b|already\b|here\b|where you are\b))"
_CLOCK_QUESTION = re.compile(
    rf"\b(?:is|isn't|is it not) (?:it|today|this) (?:(?:still|already|now) )?{_WHEN}{_NOW}"  # "Is it the weekend?"
    rf"|\bwhat (?:day|date|month|year|time) is (?:it|today){_NOW}"  # "What day is it?"
    rf"|\bwhat(?:'s| is) (?:the )?(?:date|time|day)(?: today)?{_NOW}"  # "What's the date?"
    rf"|\bwhat(?:'s| is) today(?:'s date)?{_NOW}"
    r"|\bwhat day of the week\b|\bwhich (?:day|month|year) (?:is it|are we in|is today)\b"
    r"|\bdo you know (?:what|the) (?:day|date|time)\b",
    re.I,
)

PERSON_NOTE = Note(_PERSON_QUESTION, "I'm not a person, I'm a voice assistant: a computer program on this computer.")
# for a reply without a clock among its tools: the limits prompt's own example, which the model keeps to for open
# questions ("What day is it?") and not for yes-or-no ones ("Is it the weekend?" -> "Yes, it is the weekend.")
CLOCK_NOTE = Note(_CLOCK_QUESTION, "Sorry, I can't check the date or time from here.")
