"""A Roman numeral read as a number, or a number written as one, worked out and written into the question for the model.

The 1.5B reads short numerals right and long ones by their first letters: "What number is MCMXC?" -> "MCMXC is
1900." (both runs), "What number is XIV in Roman numerals?" -> "XIV in Roman numerals represents four." once in two
(docs/benchmarks.md, "Ages and years, rhymes"). As a sum gets its answer (``app.answers.arithmetic``), a question
that reads a numeral or writes a number as one gets it beside it. A numeral must be written as the Romans' rules
have it ("MCMXC", not "MCMLXXXX") and, where the question does not say "Roman", be asked as a number: "What does MIX
mean?" gets nothing.
"""

from __future__ import annotations

import re

from app.answers.days import count_of
from app.answers.wording import plain

_LONGEST = 160  # characters: such a question is short, and longer text costs the patterns more
_LARGEST = 3999  # the largest number the Romans' letters write without a bar over them
_VALUES = (("M", 1000), ("CM", 900), ("D", 500), ("CD", 400), ("C", 100), ("XC", 90), ("L", 50), ("XL", 40), ("X", 10),
           ("IX", 9), ("V", 5), ("IV", 4), ("I", 1))  # fmt: skip
_NUMERAL = r"(?P<numeral>[MDCLXVImdclxvi]{1,15})"
_ROMAN = re.compile(r"\broman\b", re.I)
# an upper-case numeral asked as a number needs no "Roman": "What number is MCMXC?", "What's MCMXC in numbers?"
_UPPER = r"['\"]?(?-i:(?P<{name}>[MDCLXVI]{{1,15}}))['\"]?\b"
_READ = re.compile(
    rf"\b(?:(?:what|which) (?:number|year) (?:is|does)|convert|translate) (?:the (?:roman )?numeral )?"
    rf"{_UPPER.format(name='bare')}"
    rf"|\bwhat(?:'s| is) {_UPPER.format(name='bare_number')} (?:in (?:numbers|digits)|as a number)\b"
    rf"|\b(?:what(?:'s| is| does)|convert|translate) (?:the (?:roman )?numeral )?['\"]?{_NUMERAL}['\"]?"
    r"(?: (?:in|into|to|as|mean|stand for|represent)\b|[?.!]*$)",
    re.I,
)
_NUMBER = r"(?P<{name}>\d{{1,4}}|\d,\d{{3}}|[a-z]+(?:[ -][a-z]+){{0,3}}?)"  # "2024", "1,999", "twelve", "twenty-five"
_WRITE = re.compile(
    r"\b(?:what(?:'s| is)|how (?:do|would|can|should) (?:you|i|we) (?:write|say)|write|convert|translate|show me)"
    rf" (?:the (?:number|year) )?{_NUMBER.format(name='number')},? (?:in|into|to|as) (?:a )?roman(?: numerals?)?\b"
    rf"|\bwhat(?:'s| is) the roman numeral (?:for|of) (?:the (?:number|year) )?{_NUMBER.format(name='number_for')}[?.!]*$",
    re.I,
)


def roman_asked(text: str) -> str | None:
    """The numeral ``text`` asks to read or the number it asks to write, as "Worked out: MCMXC is 1990." or "Worked
    out: 2024 in Roman numerals is MMXXIV."; else None."""
    if len(text) > _LONGEST:
        return None
    text = plain(text)
    if (found := _WRITE.search(text)) and (number := _number(found["number"] or found["number_for"])):
        return f"Worked out: {number} in Roman numerals is {as_roman(number)}."
    found = _READ.search(text)
    if found is None:
        return None
    upper = found["bare"] or found["bare_number"] or ""
    if not (upper[1:] or _ROMAN.search(text)):  # "What number is I?": no numeral; "What is mix?": no number asked
        return None
    numeral = (upper or found["numeral"]).upper()
    value = _value(numeral)
    return f"Worked out: {numeral} is {value}." if value is not None else None


def _number(said: str) -> int | None:
    """A number from 1 to 3999 said as digits or words ("1,999", "twelve", "twenty-five"), else None."""
    said = said.replace(",", "")
    number = int(said) if said.isdigit() else count_of(said)
    return number if number is not None and 0 < number <= _LARGEST else None


def as_roman(number: int) -> str:
    """``number`` (1 to 3999) in Roman numerals."""
    written = []
    for letters, value in _VALUES:
        count, number = divmod(number, value)
        written.append(letters * count)
    return "".join(written)


def _value(numeral: str) -> int | None:
    """The number ``numeral`` writes, where it is written by the rules (the way ``as_roman`` writes it)."""
    total, at = 0, 0
    for letters, value in _VALUES:
        while numeral.startswith(letters, at):
            total, at = total + value, at + len(letters)
    return total if at == len(numeral) and 0 < total <= _LARGEST and as_roman(total) == numeral else None
