"""One person's age from another's, worked out and written into the question for the model.

Told "I'm 30 and my brother is 4 years younger. How old is he?", the 1.5B answers "34" now and then; "I'm 40 and my
daughter is 12. How old will she be when I'm 50?" gets "10", and "My son is 8 and I'm 36. How old was I when he was
born?" "18" or "36" (docs/benchmarks.md, "Two people's ages"). As an age from a birth year gets its count
(``app.answers.years``), a question about the user and one other person, with two of their ages and the years between
them given, gets the one asked for: the other's age now, when the user is some age or when the user was born, the
user's age when the other was born or is some age, and the years between them. Another person named, a year or a month
counted, or a fact not given, and it gets nothing.
"""

from __future__ import annotations

import re

from app.answers.arithmetic import NUMBER_WORDS
from app.answers.days import count_of
from app.answers.wording import plain

_LONGEST = 200  # characters: such a question is short, and longer text costs the patterns more
_OLDEST = 130  # years: an age beyond this is no person's
_NUMBER_WORD = "|".join(sorted((word for word in NUMBER_WORDS if " " not in word), key=len, reverse=True))
_AGE = rf"(?:\d{{1,3}}|(?:{_NUMBER_WORD})(?:[ -](?:one|two|three|four|five|six|seven|eight|nine))?)"
# a number that is no whole age in years: "8 months old", "4 feet tall", "4 times older", "2.5", "5 and a half"
_NOT_YEARS = (r"(?! ?(?:months?|weeks?|days?|hours?|minutes?|feet|foot|inches|cm|kg|kilos?|pounds|stone|o'clock|am|pm|times"
              r"|x)\b)(?![.,/]\d| and a half|½| \d+/\d)")
_KIN = r"(?:my|our) (?:(?:little|big|older|younger|baby|twin|kid|best) )?(?!(?:age|birthday|name)\b)"
_OTHER = rf"{_KIN}(?P<who>[a-z]+)"
_REF = rf"(?:he|she|they|him|her|them|{_KIN}(?P<ref>[a-z]+))"
_BEING = r"(?:'s| is| turns| reaches| gets to)"
_RELATIVE = r"(?! (?:years? )?(?:older|younger))"  # "I'm 4 years older" is no age

_MINE = re.compile(rf"\b(?:i'm|i am) (?P<age>{_AGE})(?: years? old)?\b{_NOT_YEARS}{_RELATIVE}(?! years?\b)", re.I)
_THEIRS = re.compile(rf"\b{_OTHER}(?:'s| is) (?P<age>{_AGE})(?: years? old)?\b{_NOT_YEARS}{_RELATIVE}(?! years?\b)", re.I)
# the years between them: "my sister is 3 years older than me", "my brother is 4 years younger", "I'm 5 years older
# than my cousin"; "he's 4 years younger" once the other is named
_THEY_ARE_APART = re.compile(
    rf"\b(?:{_OTHER}|he|she)(?:'s| is) (?P<n>{_AGE}) years? (?P<dir>older|younger)(?: than (?:me|i am|i'm))?(?![ a-z]*\bthan\b)",
    re.I,
)
_I_AM_APART = re.compile(rf"\b(?:i'm|i am) (?P<n>{_AGE}) years? (?P<dir>older|younger)(?: than {_REF})?", re.I)
_ANY_AGE = re.compile(rf"(?:'s|'m| is| am| are) (?:{_AGE})\b{_NOT_YEARS}(?! years? (?:older|younger))", re.I)  # whoever's
_PERSON = re.compile(rf"\b{_KIN}[a-z]+|\b(?:his|her|their|your) (?!(?:age|birthday|name)\b)[a-z]+", re.I)  # "my son", "his wife"
# a fact that may not hold now: "My daughter is 12, no actually 13", "... is 12 next week"
_UNSURE = re.compile(r"\b(?:actually|no wait|sorry|next (?:week|month|year)|tomorrow|soon|almost|nearly|about|around|maybe"
                     r"|or so|ish)\b", re.I)
_ASKS = (
    ("theirs", re.compile(rf"\bhow old (?:is|'s) {_REF}(?: now)?\s*[?.!]*$|\bwhat(?:'s| is) (?:his|her|their) age\b", re.I)),
    ("mine", re.compile(r"\bhow old am i(?: now)?\s*[?.!]*$|\bwhat(?:'s| is) my age\b", re.I)),
    ("theirs_when_mine", re.compile(rf"\bhow old (?:will|would) {_REF} be when i(?:'m| am| turn| reach| get to) (?P<at>{_AGE})\b",
                                    re.I)),
    ("mine_when_theirs", re.compile(rf"\bhow old (?:will|would) i be when {_REF}{_BEING} (?P<at>{_AGE})\b", re.I)),
    ("mine_at_their_birth", re.compile(rf"\bhow old (?:was|were) i when {_REF} (?:was|were) born\b", re.I)),
    ("theirs_at_my_birth", re.compile(rf"\bhow old (?:was|were) {_REF} when i was born\b", re.I)),
    ("apart", re.compile(rf"\bhow (?:many years|much) (?P<way>older|younger) (?:is {_REF}|(?P<me>am i))\b"
                         r"|\bage (?:difference|gap)\b|\bhow many years apart\b", re.I)),
)  # fmt: skip


def ages_apart(text: str) -> str | None:
    """The age or the years between two people ``text`` asks for, from the two of the three it gives, as "Worked out:
    the answer is 26: 30 - 4 = 26."; else None."""
    if len(text) > _LONGEST or not re.search(r"\b(?:old|older|younger|age|apart)\b", text, re.I) or re.search(r"\b\d{4}\b", text):
        return None
    text = plain(text)
    asked = next(((kind, found) for kind, pattern in _ASKS if (found := pattern.search(text))), None)
    if asked is None:
        return None
    kind, found = asked
    others = {said[0].lower().split()[-1] for said in _PERSON.finditer(text)}
    if len(others) != 1 or (found.groupdict().get("ref") and found["ref"].lower() not in others):
        return None  # "My son is 8 and my daughter is 5.", "... His wife is 25.": whose age is meant; one not given
    facts = text[: found.start()] + text[found.end():]
    if _UNSURE.search(facts):
        return None
    ages = _given(facts)
    if ages is None:
        return None
    mine, theirs = ages
    if kind == "apart" and found["way"] and (theirs > mine) != ((found["way"].lower() == "older") != bool(found["me"])):
        return None  # "I'm 30 and my son is 5. How much older is my son?": a premise the figure would confirm
    at = count_of(found["at"]) if found.groupdict().get("at") else None
    answer = _answer(kind, mine, theirs, at)
    return None if answer is None else f"Worked out: the answer is {answer}."


def _given(text: str) -> tuple[int, int] | None:
    """The user's age and the other's, from two of: the user's, the other's, the years between them; None where a fact is
    given twice, one is missing, or an age is no person's."""
    mine, theirs = _one(_MINE, text), _one(_THEIRS, text)
    apart = _apart(text)
    if len(_ANY_AGE.findall(text)) > len(_MINE.findall(text)) + len(_THEIRS.findall(text)):
        return None  # another's age: "John is 40."
    if mine is None and theirs is not None and apart is not None:
        mine = theirs - apart
    elif theirs is None and mine is not None and apart is not None:
        theirs = mine + apart
    if mine is None or theirs is None or (apart is not None and theirs - mine != apart):
        return None
    if not (0 <= mine <= _OLDEST and 0 <= theirs <= _OLDEST) or mine == theirs:
        return None
    return mine, theirs


def _one(pattern: re.Pattern[str], text: str) -> int | None:
    """The one age ``pattern`` finds in ``text``; None where it finds none or different ones."""
    counts = {count_of(found["age"]) for found in pattern.finditer(text)}
    return counts.pop() if len(counts) == 1 else None


def _apart(text: str) -> int | None:
    """The other's age less the user's, as said; None where it is not said, or said twice."""
    said = [(found["n"], found["dir"].lower(), 1) for found in _THEY_ARE_APART.finditer(text)]
    said += [(found["n"], found["dir"].lower(), -1) for found in _I_AM_APART.finditer(text)]
    if len(said) != 1 or (years := count_of(said[0][0])) is None:
        return None
    _, direction, side = said[0]
    return years * side * (1 if direction == "older" else -1)


def _answer(kind: str, mine: int, theirs: int, at: int | None) -> str | None:
    """The answer ``kind`` asks for, with its sum: "26: 30 - 4 = 26"."""
    gap = theirs - mine
    if kind == "theirs":
        return f"{theirs}: {mine} {'+' if gap > 0 else '-'} {abs(gap)} = {theirs}"
    if kind == "mine":
        return f"{mine}: {theirs} {'-' if gap > 0 else '+'} {abs(gap)} = {mine}"
    if kind == "apart":
        return f"{abs(gap)} years: {max(mine, theirs)} - {min(mine, theirs)} = {abs(gap)}"
    if kind == "mine_at_their_birth":
        return f"{-gap}: {mine} - {theirs} = {-gap}" if gap < 0 else None
    if kind == "theirs_at_my_birth":
        return f"{gap}: {theirs} - {mine} = {gap}" if gap > 0 else None
    if at is None or not 0 < at <= _OLDEST:
        return None
    start, other = (mine, theirs) if kind == "theirs_when_mine" else (theirs, mine)  # whose age is said, whose asked
    later = at - start
    then = other + later
    return f"{then}: {at} - {start} = {later} years from now, and {other} + {later} = {then}" if later > 0 else None
