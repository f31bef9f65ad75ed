"""An age or a count of years from this year, worked out and written into the question for the model.

Asked "If I was born in 1990, how old am I this year?", the 1.5B answers "31" run after run; "How many years ago was
1969?" gets "50", "How many years until 2050?" "100", and "My daughter was born in 2019. How old will she be next
year?" "20" (docs/benchmarks.md, "Ages and years"): it has no year to count from, and counts badly from the years it
read most. As a sum gets its answer (``app.answers.arithmetic``), such a question gets the count beside it: an age from
a birth year (now, in a year it names, next year, in some years), a birth year from an age, the year some years from
now or ago, and the years since or until a year; "How old am I?" after "I was born in 1978." gets the age too
(``my_age``, for ``app.answers.notes``). These read the server's clock for the year, which is the user's
everywhere but for a few hours at New Year (the limits prompt still declines "What year is it?", as it does the date,
whose day is not the same everywhere). The years between two years a question names count no clock.
"""

from __future__ import annotations

import datetime
import re

from app.answers.arithmetic import NUMBER_WORDS_PATTERN
from app.answers.days import count_of
from app.answers.wording import plain

_LONGEST = 160  # characters: such a question is short, and longer text costs the patterns more
_OLDEST = 130  # years: an age beyond this is no person's
_YEAR = r"(?:the year )?(?P<{name}>1[0-9]{{3}}|2[01][0-9]{{2}})\b(?! ?(?:bc|bce|b\.c\.|ad|ce)\b)"
_A_YEAR = re.compile(r"\b\d{4}\b")
# a number that is no age or year: "8 months old", "in 2000 days", "4 feet tall", "5 o'clock"
_NO_YEARS = (r"(?! ?(?:months?|weeks?|days?|hours?|minutes?|seconds?|feet|foot|inches|cm|metres?|meters?|kg|kilos?|pounds"
             r"|o'clock))")
_NUMBER_WORD = NUMBER_WORDS_PATTERN
_COUNT = rf"(?P<{{name}}>\d{{{{1,3}}}}|(?:{_NUMBER_WORD})(?:[ -](?:one|two|three|four|five|six|seven|eight|nine))?|an?)"
_WHO = (r"(?:i|you|he|she|they|we|it|someone|somebody|anyone|anybody|one|a (?:person|man|woman|child|kid|baby)"
        r"|(?:my|your|our|his|her|their) [a-z]+)")
_OWNER = {"my": "i", "your": "you", "his": "he", "her": "she", "their": "they"}  # "what's my age?"
_ANYONE = {"he", "she", "they", "it", "someone", "somebody", "anyone", "anybody", "one", "a person", "a man", "a woman",
           "a child", "a kid", "a baby"}  # fmt: skip
# whose birth and whose age: "My son was born in 2015. When will my daughter turn 18?" asks of another
_BORN_WHO = re.compile(rf"\b(?P<who>{_WHO}|[a-z]+) (?:was|were|is|am|'m|'s) born\b", re.I)
_AGE_WHO = re.compile(
    rf"\bhow old (?:am|is|are|was|were|will|would) (?P<who>{_WHO}|[a-z]+)\b|\bwhat(?:'s| is) (?P<whose>my|your|his|her|their)"
    r" age\b",
    re.I,
)
_BORN = re.compile(rf"\bborn (?:in |back in )?{_YEAR.format(name='born')}", re.I)
# with a birth year: "How old is Tom if he was born in 1990?", "What age would I be ...?", "... what's my age?"
_HOW_OLD = re.compile(r"\bhow old\b|\bwhat age\b|\bwhat(?:'s| is) (?:my|your|his|her|their) age\b", re.I)
_WHEN_THEN = re.compile(r"\b(?:how old|what age)\b.*\bwhen\b", re.I)  # "How old was I when the Wall fell?"
# the year the age is asked for: "in 2030", "next year", "in 5 years", "in 5 years' time"; else this year
_IN_YEAR = re.compile(rf"\b(?:in|by) {_YEAR.format(name='then')}{_NO_YEARS}", re.I)
_THIS_YEAR = re.compile(r"\bthis year\b", re.I)
_NEXT_LAST = re.compile(r"\b(?P<which>next|last) year\b", re.I)
_IN_YEARS = re.compile(
    rf"\b(?:in|after) {_COUNT.format(name='n')} years?(?:'? time)?\b|\b{_COUNT.format(name='m')} years? from (?:now|today)\b",
    re.I,
)
_YEARS_AGO = re.compile(rf"\b{_COUNT.format(name='n')} years? (?:ago|back|before now|earlier)\b", re.I)
_WHEN_TURNS = re.compile(
    rf"\b(?:what year|when|which year|in what year) (?:will|would|did|does|do) (?P<who>{_WHO}|[a-z]+) (?:turn|be|become)"
    rf" (?P<age>\d{{1,3}})(?: years? old)?(?=\s*(?:$|[?.!,]|if\b|and\b))",
    re.I,
)
# a birth year from an age: "I'm 30. What year was I born?", "If someone is 45, when were they born?"
_AGE_NOW = re.compile(
    rf"\b(?P<who>i(?='m)|you(?='re)|he(?='s)|she(?='s)|they(?='re)|{_WHO}(?= (?:is|are|am|turned|turns)))"
    rf"(?:'m|'re|'s| is| are| am| turned| turns) (?P<age>\d{{1,3}})\b{_NO_YEARS}",
    re.I,
)
_WHEN_BORN = re.compile(rf"\b(?:what year|when|which year|in what year) (?:was|were|am|is) (?P<who>{_WHO}) born\b", re.I)
# the years since or until a year: "How many years ago was 1969?", "How long until 2050?", "How many years since 1989?"
_SINCE = re.compile(
    rf"\bhow (?:many years|long) (?:ago (?:was|is|did)|has it been since|is it since|since|(?:have|has) passed since)"
    rf"(?:(?: [\w'-]+){{1,5}}? in)? {_YEAR.format(name='year')}"
    rf"|\bhow (?:many years|long) (?:until|till|to|before|is it (?:until|till|to|before)|away is|from now is|"
    rf"(?:is|are) there (?:until|till|before)) {_YEAR.format(name='year_to')}(?=\s*(?:$|[?.!,]))",
    re.I,
)
# the year some years from now or ago: "What year will it be in 10 years?", "What year was it 20 years ago?"
_WHAT_YEAR = re.compile(r"\b(?:what|which) year (?:will it be|would it be|was it|is it|will that be|was that)\b", re.I)
# the years between two years: "How many years are there between 1990 and 2020?", "How many years from 1776 to 2026?"
_IN_UNITS = re.compile(r"\bin (?:days|weeks|months|hours|minutes)\b", re.I)  # "How long until 2030 in days?"
_BETWEEN = re.compile(
    rf"\bhow many years (?:are there |are |is it |were there |passed |have passed )?(?:between|from) {_YEAR.format(name='a')}"
    rf",? (?:and|to|until|till) {_YEAR.format(name='b')}",
    re.I,
)


def years_counted(text: str, today: datetime.date | None = None) -> str | None:
    """The age or count of years ``text`` asks for, as "Worked out: 1969 was 57 years ago, as it is 2026 now."; else
    None. ``today`` (the server's date when None) gives this year."""
    if len(text) > _LONGEST or not re.search(r"\d{4}|\byears?\b|\bold\b|\bborn\b", text, re.I):
        return None
    text = plain(text)
    year = (today or datetime.date.today()).year
    answer = _age(text, year) or _birth_year(text, year) or _since(text, year) or _year_of(text, year) or _between(text)
    return f"Worked out: {answer}." if answer else None


# "How old am I?" after "I was born in 1978.": the age from the birth year the user gave, the latest of the two said
MY_AGE_ASKED = re.compile(
    r"^(?:(?:so|and|ok|okay|hey|um|then)[,]? )*(?:(?:can|could) you tell me |do you know )?"
    r"(?:how old (?:am i|will i be|was i|would i be|i am)\b|what(?:'s| is) my age\b"
    r"|(?:when|what year|which year|in what year) (?:will|do|would) i turn \d{1,3}\b)[^?.!]{0,40}[?.!]*$",
    re.I,
)
_I_WAS_BORN = re.compile(rf"\bi(?: was| am|'m) born (?:in |back in )?{_YEAR.format(name='born')}", re.I)
_MY_AGE = re.compile(
    r"\b(?:i'm|i am|i turned|i'll be|i will be) \d{1,3}(?: years? old)?(?=\s*(?:$|[.,!?;]|and\b|now\b|this year\b))", re.I
)


def asks_my_age(question: str) -> bool:
    """Whether ``question`` asks the user's age without giving their birth year (which its own figure reads)."""
    question = plain(question)
    return MY_AGE_ASKED.search(question) is not None and _BORN.search(question) is None


def my_age(question: str, earlier: list[str], today: datetime.date | None = None) -> str | None:
    """For a question of the user's age (``MY_AGE_ASKED``) without a year, the figure from the birth year they gave in
    ``earlier`` (their messages, oldest first), unless they gave their age after it; else None."""
    if not asks_my_age(question):
        return None
    question = plain(question).replace("how old i am", "how old am i")
    for text in map(plain, reversed(earlier)):
        if births := list(_I_WAS_BORN.finditer(text)):  # "... No wait, I was born in 1980.": the last
            return years_counted(f"I was born in {births[-1]['born']}. {question}", today)
        if _MY_AGE.search(text):
            return None
    return None


def _age(text: str, year: int) -> str | None:
    births = _BORN.findall(text)
    asked_at = _HOW_OLD.search(text) or _WHEN_TURNS.search(text)
    if len(births) != 1 or asked_at is None or _WHEN_THEN.search(text) or _AGE_NOW.search(text):
        return None  # "My dad was 30 when I was born in 1990. How old is he?": whose age is counted from what
    born = int(births[0])
    born_who, asked_who = _BORN_WHO.search(text), _AGE_WHO.search(text) or _WHEN_TURNS.search(text)
    if born_who and asked_who and not _same_person(born_who["who"], asked_who["who"] or _OWNER[asked_who["whose"].lower()]):
        return None
    if turns := _WHEN_TURNS.search(text):
        then = born + int(turns["age"])
        if _years_named(text) - {born}:
            return None
        return f"the answer is {then}: born in {born}, one turns {turns['age']} in {then}"
    question = re.split(r"[?.!](?:\s|$)", text[asked_at.start():])[0]  # "How old is my cat? I got her in 2015."
    asked = _year_asked(question, year, born)
    if asked is None or _years_named(text) - {born, asked[0]}:  # "... and married in 2015. How old am I?"
        return None
    if not 0 <= asked[0] - born <= _OLDEST or not 0 <= year - born <= _OLDEST:
        return None
    then, when = asked
    age = then - born
    if then == year and not _THIS_YEAR.search(text):  # "how old am I?": which side of the birthday is not said
        return (f"born in {born}, one turns {age} in {year}: {age} once the birthday has come, {age - 1} before it"
                if age else f"born in {born}, one is under a year old")
    # the answer first: after "one turns 26 next year" the model added the year again ("You'll be 27 next year.")
    return f"the answer is {age}: born in {born}, one {'turned' if then < year else 'turns'} {age} {when}"


def _years_named(text: str) -> set[int]:
    return {int(found) for found in _A_YEAR.findall(text)}


def _same_person(born: str, asked: str) -> bool:
    """Whether who was born and whose age is asked can be one person: "I" only with "I", "my son" not with "my daughter"."""
    born, asked = (who.lower().removeprefix("my ").removeprefix("your ") for who in (born, asked))
    if "i" in (born, asked) or "you" in (born, asked):
        return born == asked
    return born == asked or born in _ANYONE or asked in _ANYONE


def _year_asked(text: str, year: int, born: int) -> tuple[int, str] | None:
    """The year an age is asked for in ``text`` (the question from its "how old" on), and how it says it ("next year,
    in 2027"): one named other than the birth year, next or last year, some years from now or ago, else this year."""
    named = [int(found["then"]) for found in _IN_YEAR.finditer(text) if int(found["then"]) != born]
    if named:
        return (named[0], f"in {named[0]}") if len(named) == 1 else None
    if which := _NEXT_LAST.search(text):
        then = year + (1 if which["which"].lower() == "next" else -1)
        return then, f"{which['which'].lower()} year, in {then}"
    if later := _IN_YEARS.search(text):
        count = count_of(later["n"] or later["m"])
        return None if count is None else (year + count, f"in {_years(count)}, in {year + count}")
    if earlier := _YEARS_AGO.search(text):
        count = count_of(earlier["n"])
        return None if count is None else (year - count, f"in {year - count}, {_years(count)} ago")
    return year, f"in {year}"


def _birth_year(text: str, year: int) -> str | None:
    ages, asked = list(_AGE_NOW.finditer(text)), _WHEN_BORN.search(text)
    if len(ages) != 1 or asked is None or _BORN.search(text) or _A_YEAR.search(text) or not 0 < int(ages[0]["age"]) <= _OLDEST:
        return None  # "I turned 40 in 2020. What year was I born?": counted from another year
    if not _same_person(ages[0]["who"], asked["who"]):  # "My dad is 60. When was my son born?"
        return None
    age = int(ages[0]["age"])
    return (f"one who is {age} in {year} was born in {year - age} if the birthday has come this year, "
            f"and in {year - age - 1} if not")


def _since(text: str, year: int) -> str | None:
    found = _SINCE.search(text)
    if found is None or _IN_UNITS.search(text):
        return None
    if found["year"]:
        then = int(found["year"])
        return f"{then} was {_years(year - then)} ago, as it is {year} now" if then < year else None
    then = int(found["year_to"])
    return f"{then} is {_years(then - year)} from now, as it is {year} now" if then > year else None


def _year_of(text: str, year: int) -> str | None:
    if not _WHAT_YEAR.search(text) or _A_YEAR.search(text):  # "... if it's 2020 now?": counted from that year
        return None
    later, earlier = _IN_YEARS.search(text), _YEARS_AGO.search(text)
    if (later is None) == (earlier is None):
        return None
    count = count_of(later["n"] or later["m"] if later else earlier["n"])
    if not count or count > 1000:
        return None
    if later:
        return f"in {_years(count)} it will be {year + count}, as it is {year} now"
    return f"{_years(count)} ago it was {year - count}, as it is {year} now"


def _between(text: str) -> str | None:
    found = _BETWEEN.search(text)
    if found is None or found["a"] == found["b"]:
        return None
    a, b = sorted((int(found["a"]), int(found["b"])))
    return f"the answer is {_years(b - a)}: from {a} to {b}"


def _years(count: int) -> str:
    return f"{count} year{'' if count == 1 else 's'}"
