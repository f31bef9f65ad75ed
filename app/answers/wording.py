"""Text as the figures' and notes' patterns read it, and as their sentences begin."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from typing import TypeVar

_Thing = TypeVar("_Thing")

# after a figure whose question invites working it out ("How much fuel for 250 kilometres?"): given the answer alone,
# the model still set out the method at length and was cut before the answer
SHORT_ANSWER = "Say the answer in one short sentence."

# a request that is the whole message: its first words ("Okay, can you ...", "Please ...", "Let's ...") and its last
# (" for me, please.")
REQUEST_START = (r"^(?:(?:ok|okay|hey|so|um|now|alright|right|oh|come on)[,.!]? )*"
                 r"(?:(?:can|could|would|will) (?:you|u) (?:please )?|please |let's |i want you to |go ahead and )?")
REQUEST_END = r"(?: for (?:me|us|it))?(?:,? please)?[.!?]*$"
# after a joke, a film, a name or a riddle: another of what was given, the whole message
ANOTHER_ASKED = re.compile(
    r"^(?:(?:ok|okay|ha|haha|lol|nice|cool|great|good one|funny|wow|oh|and|hmm|that's (?:funny|hilarious|great|good|cool"
    r"|nice))[,.!]* )*"
    r"(?:(?:tell|give|show|name|suggest) (?:me |us )?|(?:can|could) (?:you|u) (?:tell|give|suggest) (?:me |us )?"
    r"|how about |what about )?(?:another(?: one)?|one more(?: time)?|something else|a different one|(?:some|any)thing"
    r" different|a new one)(?:,? please)?[?.!]*$",
    re.I,
)


def draw_unsaid(draws: random.Random, things: Sequence[_Thing], said: Callable[[_Thing, str], bool],
                replies: list[str]) -> _Thing:  # fmt: skip
    """One of ``things`` (jokes, riddles, facts, ...) that none of a conversation's ``replies`` said, drawn; where all
    were said, any but the one the last reply said: each heard again in a long conversation, never twice running."""
    unsaid = [thing for thing in things if not any(said(thing, reply) for reply in replies)]
    return draws.choice(unsaid or [thing for thing in things if not said(thing, replies[-1])] or list(things))


_LONGEST_REQUEST = 120  # characters: a request for one of a kind of thing is short


def draw_asked(question: str, replies: list[str], draws: random.Random, asked: re.Pattern[str], things: Sequence[_Thing],
               said: Callable[[_Thing, str], bool]) -> _Thing | None:  # fmt: skip
    """For ``question`` asking for one of ``things`` (``asked``), or for another ("Another one.") right after a reply
    that said one, one drawn (``draw_unsaid``); else None."""
    text = plain(question)
    if len(text) > _LONGEST_REQUEST:
        return None
    if ANOTHER_ASKED.search(text):
        if not replies or not any(said(thing, replies[-1]) for thing in things):
            return None
    elif not asked.search(text):
        return None
    return draw_unsaid(draws, things, said, replies)


# words that stand for another, which a question about a word may name in its place ("How do you spell it?", "How many
# syllables does it have?")
PRONOUNS = frozenset({"it", "that", "this", "these", "those", "them", "they", "he", "she", "him", "her", "his", "its", "my",
                      "your", "our", "their", "me", "you", "we", "us", "i", "what", "which"})  # fmt: skip

# the user did not follow the last reply: "What do you mean?", "I don't get it.", "I'm confused."
NOT_FOLLOWED = re.compile(
    r"^(?:(?:sorry|um|uh|hm+|oh|wait|but|huh|ok|okay)[,.!?]* )*"
    r"(?:what do (?:you|u) mean(?: by (?:that|it|this))?|what does (?:that|it|this) mean|what's that mean"
    r"|i (?:don't|do not) (?:understand|get it|get that|follow)(?: (?:that|it|you|what you mean))?"
    r"|i'm (?:confused|lost)|(?:that|this|it) (?:doesn't|does not) make (?:any )?sense|(?:that|this) makes no sense)"
    r"(?:,? please)?[?.!]*$",
    re.I,
)


def plain(text: str) -> str:
    """Single spaces and straight apostrophes, as the patterns are written."""
    return " ".join(text.replace("’", "'").split())


def capitalized(said: str) -> str:
    """``said`` with its first letter a capital and the rest as it was ("the UK" -> "The UK", not "The uk")."""
    return said[0].upper() + said[1:]
