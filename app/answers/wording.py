"""Text as the figures' and notes' patterns read it, and as their sentences begin."""

from __future__ import annotations

# after a figure whose question invites working it out ("How much fuel for 250 kilometres?"): given the answer alone,
# the model still set out the method at length and was cut before the answer
SHORT_ANSWER = "Say the answer in one short sentence."

# a request that is the whole message: its first words ("Okay, can you ...", "Please ...", "Let's ...") and its last
# (" for me, please.")
REQUEST_START = (r"^(?:(?:ok|okay|hey|so|um|now|alright|right|oh|come on)[,.!]? )*"
                 r"(?:(?:can|could|would|will) (?:you|u) (?:please )?|please |let's |i want you to |go ahead and )?")
REQUEST_END = r"(?: for (?:me|us|it))?(?:,? please)?[.!?]*$"


def plain(text: str) -> str:
    """Single spaces and straight apostrophes, as the patterns are written."""
    return " ".join(text.replace("’", "'").split())


def capitalized(said: str) -> str:
    """``said`` with its first letter a capital and the rest as it was ("the UK" -> "The UK", not "The uk")."""
    return said[0].upper() + said[1:]
