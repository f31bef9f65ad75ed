"""A sequence the user asks the assistant to say, counting or reciting, written out for the model.

Asked "Can you count to ten?", the 1.5B answers the question as asked: "Yes, I can count to ten." (every run, and for
"Can you count down from ten?", "Can you count by twos to ten?", "Can you recite the alphabet?"; told "Do it now, in
your reply." beside it, still for most of them), and listing the months it stopped at October (3 runs of 4;
docs/benchmarks.md, "Said, not promised"). As a sum gets its answer (``app.answers.arithmetic``), such a request gets
its sequence beside it: numbers counted up or down, by a step, the alphabet, the months, the days of the week, in
order or backwards, as the answer to say ('Answer: "Sure! 1, 2, 3."'): beside "Worked out: 1, 2, 3." the model still
said it could, or took the count for the user's ("Great job! You counted to a hundred in tens."). A count up to ten
may be in a language of the phrasebook ("Can you count to five in French?" -> "Yes, I can count to five in French."
before; ``app.answers.phrasebook``). Only a request (after "can you", "please", "let's" or as its first words): "How
do I count to ten?" gets nothing, nor "My son can count to twenty."
"""

from __future__ import annotations

import re
import string

from app.answers.arithmetic import NUMBER_WORDS, NUMBER_WORDS_PATTERN
from app.answers.days import MONTHS, WEEKDAYS, count_of
from app.answers.phrasebook import LANGUAGE_NAMES, NUMBERS, language_named
from app.answers.wording import plain

_LONGEST = 160  # characters: such a request is short, and longer text costs the patterns more
_MOST_SAID = 50  # numbers: longer counts are no sequence to say aloud in one reply
_STEPS = {"twos": 2, "threes": 3, "fours": 4, "fives": 5, "tens": 10, "twenties": 20, "hundreds": 100}
# a request: the first words of the message or of a clause, or after "can you", "please", "let's"
_ASKED = (r"(?:^|[.!?,;:]\s*|\b(?:can|could|would|will) (?:you|u) (?:please )?|\bplease |\bi (?:want|need) you to "
          r"|\bdo you know how to |\blet'?s |\blet us |\bhelp me )(?:(?:hey|ok|okay|oh|and|now|so|then|just|please|quickly) )*")
_TENS = "|".join(word for word, value in NUMBER_WORDS.items() if 20 <= value < 100)
_NUMBER = rf"(?:\d{{1,4}}|(?:{_TENS})[ -](?:one|two|three|four|five|six|seven|eight|nine)|{NUMBER_WORDS_PATTERN})\b"
_COUNT = re.compile(
    rf"{_ASKED}count(?: (?P<down>down|backwards?|back))?(?: (?:from|starting (?:at|from)) (?P<first>{_NUMBER}))?"
    rf"(?: (?:up |down |back )?to (?P<last>{_NUMBER}))?(?: (?:by|in) (?P<step>{'|'.join(_STEPS)}|\d{{1,3}}s?))?"
    rf"(?: (?:up |down |back )?to (?P<last_after>{_NUMBER}))?(?: for (?:me|us))?(?P<rest>[^?.!]*)",
    re.I,
)
_BACKWARDS = r"(?: (?P<back>backwards?|in reverse|in reverse order|back to front))?"
_SAY = r"(?:say|recite|sing|tell me|tell us|list|name|read|go through|give me|spell out|run through|repeat)"
_ALPHABET = re.compile(rf"{_ASKED}{_SAY} (?:me |us )?the (?:whole |entire |english |full )?(?:alphabet|abcs?){_BACKWARDS}"
                       r"(?P<rest>[^?.!]*)", re.I)


def _names_asked(names: str) -> re.Pattern[str]:
    """A request to say the names ``names`` matches, or the question what they are ("What are the days of the week?")."""
    return re.compile(rf"(?:{_ASKED}{_SAY} (?:me |us )?|\b(?P<question>what are) )(?:all )?(?:of )?the {names}"
                      rf"(?: in order)?{_BACKWARDS}(?P<rest>[^?.!]*)", re.I)  # fmt: skip


_MONTHS = _names_asked(r"(?:twelve |12 )?months(?: of the year)?")
_WEEKDAYS = _names_asked(r"(?:seven |7 )?days of the week")
# a count in another language: its numbers from the phrasebook, up to ten
_IN_LANGUAGE = re.compile(rf" in (?P<language>{LANGUAGE_NAMES})\b", re.I)
# after the request (and its language): anything more than where to stop, which the sequence would not say
_NOT_SAID = re.compile(r"^(?:,? (?:please|for me|for us|with me|together|out loud|aloud|slowly|again|now|in order))*\W*$", re.I)


def sequence_asked(text: str) -> str | None:
    """The sequence ``text`` asks to be said, as the answer: 'Answer: "Sure! 1, 2, 3, 4, 5."' (a question, "What are
    the days of the week?", without "Sure!"); else None."""
    if len(text) > _LONGEST:
        return None
    text = plain(text)
    language = None
    if found := _COUNT.search(text):
        language = _IN_LANGUAGE.match(found["rest"])
        if not _NOT_SAID.match(found["rest"][language.end() if language else 0 :]):
            return None
        said = _counted(found)
        if said and language:
            said = _in_language(said, language_named(language["language"]))
    elif (found := _ALPHABET.search(text) or _MONTHS.search(text) or _WEEKDAYS.search(text)) and _NOT_SAID.match(found["rest"]):
        names = {_ALPHABET: list(string.ascii_uppercase), _MONTHS: list(MONTHS), _WEEKDAYS: list(WEEKDAYS)}[found.re]
        said = names[::-1] if found["back"] else names
    else:
        return None
    if not said:
        return None
    first_words = "" if found.groupdict().get("question") else "Sure! "
    if language:
        first_words += f"In {language_named(language['language'])}: "
    return f'Answer: "{first_words}{", ".join(said)}."'


def _counted(found: re.Match[str]) -> list[str] | None:
    """The numbers a request to count says: up to or down from a number, from another, by a step."""
    last_said = found["last"] or found["last_after"]
    first, last = (count_of(said) if said else None for said in (found["first"], last_said))
    if (found["first"] and first is None) or (last_said and last is None) or (first is None and last is None):
        return None
    step = _step(found["step"]) if found["step"] else 1
    if step is None:
        return None
    down = bool(found["down"])
    if first is None:  # "count to ten", "count down to zero": from 1, or down from 10 (a countdown's usual start)
        first = 1 if not down else 10 if last is not None and last < 10 else None
        if first is None:
            return None
        first = step if not down and step > 1 else first
    if last is None:  # "count down from ten": to one; "count from five": no end
        if not down:
            return None
        last = 1
    if (down and last > first) or (not down and last < first):
        return None
    numbers = range(first, last - 1, -step) if down else range(first, last + 1, step)
    return [str(number) for number in numbers] if 1 < len(numbers) <= _MOST_SAID else None


def _in_language(numbers: list[str], language: str) -> list[str] | None:
    """``numbers`` (from zero to ten) as ``language`` says them; None where one is beyond the phrasebook's."""
    said = NUMBERS[language]
    return [said[int(number)] for number in numbers] if all(0 <= int(number) < len(said) for number in numbers) else None


def _step(said: str) -> int | None:
    said = said.lower()
    if said in _STEPS:
        return _STEPS[said]
    step = int(said.rstrip("s"))
    return step if step > 0 else None
