"""The answer to a sum said aloud, worked out and written into the question for the model.

The 1.5B does most sums a person asks a voice, and gets some of them wrong with the same confidence: "2 to the power
of 10 is 1000000000.", "23 times 47 equals 1121.", "0.11 is bigger than 0.9.", and, asked a question whose answer is
no, "Yes, 21 is a prime number." (docs/benchmarks.md, "Sums"). As a unit question gets its figure
(``app.answers.conversions``), a question that is only a sum ("What's 23 times 47?", "What is the square root of
225?", "How much is 15 percent of 80?", "What is half of three quarters?", which the model answered "one and a
half"), numbers asked in order, a share or a change as a percentage, a comparison of two numbers ("Which is bigger,
0.9 or 0.11?") or a question about a number ("Is 21 a prime number?", "Is 2028 a leap year?") gets the worked-out
answer beside it, and so does a sum that goes on from the last one's answer ("Now divide that by four."). The whole
question must be the sum: "What is 9/11?" (no spaces around the slash), "What's 50-50?" or "What's 5 times the legs
of a spider?" get nothing.
"""

from __future__ import annotations

import math
import operator
import re
from collections.abc import Callable
from fractions import Fraction

from app.answers.wording import plain
from app.tts.numbers import number_to_words

# a whole number said as words, as a question says one ("between one and ten", "twenty metres")
NUMBER_WORDS = {word: value for value, word in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen"
    " eighteen nineteen twenty".split())} | {"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
                                              "eighty": 80, "ninety": 90, "a hundred": 100, "one hundred": 100,
                                              "a thousand": 1000, "one thousand": 1000}  # fmt: skip
NUMBER_WORDS_PATTERN = "|".join(sorted(NUMBER_WORDS, key=len, reverse=True))  # longest first, as alternatives
_LARGEST = 10**15  # beyond this a figure is no longer something to say
_LONGEST = 200  # characters: a sum said aloud is short, and longer text costs the patterns more
_MOST_DIGITS = 20  # in one number
_MOST_TOKENS = 24  # "What's one thousand two hundred and five minus 3 squared times the square root of 16?" has 17
_UNITS = {word: value for word, value in NUMBER_WORDS.items() if " " not in word}
_SCALES = {"hundred": 100, "thousand": 1000, "million": 10**6, "billion": 10**9}
_DIGITS = re.compile(r"\d+(?:,\d{3})*(?:\.\d+)?|\.\d+")
_TOKEN = re.compile(rf"{_DIGITS.pattern}|[a-z]+|[-+*×x÷/^%]", re.I)
# the words before and after a sum: "What's ...?", "Can you work out ...?", "... equal to?"
_LEAD = re.compile(
    r"^(?:(?:hey|ok|okay|so|um|and|quick question)[,.!]? )*(?:(?:can|could|would) (?:you|u) (?:please )?|please )?"
    r"(?:what(?:'s| is| does)|whats|how much is|calculate|compute|work out|figure out|tell me|do you know) ",
    re.I,
)
_TAIL = re.compile(r"(?: (?:equal to|equals?|make|come to))?(?:,? please)?[?.!]*$", re.I)
_Operation = Callable[[Fraction, Fraction], Fraction]
_BINARY: dict[tuple[str, ...], tuple[int, _Operation]] = {  # an operator's words, to (its precedence, its function)
    ("plus",): (1, operator.add), ("+",): (1, operator.add), ("add",): (1, operator.add),
    ("minus",): (1, operator.sub), ("-",): (1, operator.sub), ("take", "away"): (1, operator.sub),
    ("times",): (2, operator.mul), ("x",): (2, operator.mul), ("*",): (2, operator.mul), ("×",): (2, operator.mul),
    ("multiplied", "by"): (2, operator.mul), ("divided", "by"): (2, operator.truediv), ("over",): (2, operator.truediv),
    ("/",): (2, operator.truediv), ("÷",): (2, operator.truediv),
    ("percent", "of"): (2, lambda a, b: a * b / 100), ("%", "of"): (2, lambda a, b: a * b / 100),
}  # fmt: skip
_PREFIX: dict[tuple[str, ...], Callable[[Fraction], Fraction | None]] = {  # before a number: what is done to it
    ("the", "square", "root", "of"): lambda v: _root(v, 2), ("square", "root", "of"): lambda v: _root(v, 2),
    ("the", "cube", "root", "of"): lambda v: _root(v, 3), ("cube", "root", "of"): lambda v: _root(v, 3),
    ("half", "of"): lambda v: v / 2, ("double",): lambda v: v * 2, ("twice",): lambda v: v * 2,  # "a third of": parts
    ("triple",): lambda v: v * 3,
}  # fmt: skip
_DONE_TO_A_NUMBER = re.compile(r"\b(?:squared|cubed|power|root|of|double|twice|triple)\b|\^", re.I)
# a fraction said in words ("three quarters", "a half", "two and a half"): the part's names, singular and plural
_PART_NAMES = {2: ("half", "halves"), 3: ("third", "thirds"), 4: ("quarter", "quarters"), 5: ("fifth", "fifths"),
               6: ("sixth", "sixths"), 7: ("seventh", "sevenths"), 8: ("eighth", "eighths"), 9: ("ninth", "ninths"),
               10: ("tenth", "tenths"), 11: ("eleventh", "elevenths"), 12: ("twelfth", "twelfths"),
               16: ("sixteenth", "sixteenths")}  # fmt: skip
_PARTS = {name: parts for parts, names in _PART_NAMES.items() for name in names} | {"fourth": 4, "fourths": 4}
_HYPHENED_PART = re.compile(rf"\b([a-z]+)-({'|'.join(_PARTS)})\b", re.I)  # "three-quarters" as "three quarters"
_NUMBER = rf"(?:minus |negative |-)?(?:{_DIGITS.pattern}|(?:[a-z]+(?:[ -][a-z]+){{0,4}}?))"
_BIGGER = {"bigger": ">", "larger": ">", "greater": ">", "higher": ">", "more": ">", "smaller": "<", "less": "<",
           "lower": "<", "fewer": "<"}  # fmt: skip
_COMPARED = (
    re.compile(rf"^which (?:number |one )?is (?P<cmp>{'|'.join(_BIGGER)})[,:]? (?P<a>{_NUMBER}) or (?P<b>{_NUMBER})$", re.I),
    re.compile(rf"^is (?P<a>{_NUMBER}) (?P<cmp>{'|'.join(_BIGGER)}) than (?P<b>{_NUMBER})$", re.I),
)
# numbers put in order: "Put these in order from smallest to largest: 9, 2, 7, 4." (the model: "4, 2, 7, 9")
_ENDS = r"(?:smallest|lowest|least|biggest|largest|highest|greatest)"
_LISTED = r"(?:minus |-)?\d+(?:\.\d+)?"
_ORDERED = re.compile(
    r"^(?:(?:can|could|would) you (?:please )?|please )?(?:put|sort|order|arrange|rank|list)(?: these| the following| the)?"
    r"(?: numbers)?"
    rf"(?: in (?P<way>ascending |descending )?order)?(?: from (?P<first>{_ENDS}) to {_ENDS})?[:,]?"
    rf" (?P<listed>{_LISTED}(?:(?:,| and|, and) {_LISTED}){{1,11}})"
    rf"(?:,? (?:from (?P<then>{_ENDS}) to {_ENDS}|in (?:(?P<way_then>ascending|descending) )?order))?$",
    re.I,
)
# a share said in words, of some things ("ate a third of them") or of a unit ("three quarters of an hour")
SHARES = {"half": Fraction(1, 2), "a half": Fraction(1, 2), "a third": Fraction(1, 3), "a quarter": Fraction(1, 4),
           "two thirds": Fraction(2, 3), "three quarters": Fraction(3, 4), "a fifth": Fraction(1, 5), "a tenth": Fraction(1, 10)}
# a part of some things taken, and what is left: "I baked 24 cookies and ate a third of them. How many are left?" (the
# model: "8")
_PART_TAKEN = re.compile(
    rf"\b(?P<n>\d+|{'|'.join(_UNITS)}) (?P<things>[a-z]+(?: [a-z]+)?),? and (?:then )?(?:i |we |he |she |they |you |the \w+ )?"
    r"(?:ate|gave away|used|sold|lost|spent|broke|drank|took|gave|threw away|eat|give away|use|sell|lose|spend|drink|take"
    rf"|throw away) (?P<part>{'|'.join(SHARES)}|(?P<percent>\d+)(?: percent|%)) of them\b"
    r"(?P<rest>.*)$",
    re.I,
)
_LEFT = re.compile(r"\bhow many (?:(?P<asked>\w+) )?(?:are|is|do|does|did|have|has|will|would|remain|were)\b[\w' ]*\bleft\b"
                   r"|\bhow many (?:(?P<remain>\w+) )?remain\b", re.I)
# more told after the part: another count, a second part, or a part taken again ("... Then my dog ate four.")
_MORE_TAKEN = re.compile(rf"\d|\b(?:{'|'.join(_UNITS)}|more|another|again|then|each|too|also|rest|what was left|a day|every|per"
                         rf"|plus|minus|{'|'.join(SHARES)}|of them)\b", re.I)
# a share as a percentage, and a change as one: "15 is what percent of 60?", "If a price goes from 50 to 60 dollars,
# what's the percentage increase?" (the model: "A 10% increase")
_AMOUNT = r"\$?(?:\d+(?:,\d{3})*(?:\.\d+)?)"
_PERCENT_OF = (
    re.compile(rf"^what percent(?:age)? (?:is|of) (?P<part>{_AMOUNT}) (?:is )?(?:of|out of) (?P<whole>{_AMOUNT})$", re.I),
    re.compile(rf"^(?P<part>{_AMOUNT}) (?:is|out of) what percent(?:age)? of (?P<whole>{_AMOUNT})$", re.I),
    re.compile(rf"^what percent(?:age)? of (?P<whole>{_AMOUNT}) is (?P<part>{_AMOUNT})$", re.I),
)
_CHANGE = r"(?:increase|decrease|change|rise|drop|fall)"  # not "difference", which some take from the mean of the two
_PERCENT_CHANGE = (
    re.compile(rf"^(?:the )?percent(?:age)? {_CHANGE} (?:is it )?from (?P<a>{_AMOUNT}) to (?P<b>{_AMOUNT})$", re.I),
    re.compile(rf"\bfrom (?P<a>{_AMOUNT})(?P<a_unit> [a-z]+)? to (?P<b>{_AMOUNT})(?P<b_unit> [a-z]+)?[,.]? (?:so )?"
               r"(?:what(?:'s| is) the |by what |how much (?:is|was) the |what was the )?percent(?:age)?"
               rf"(?: {_CHANGE}| (?:did|does|has) it (?:go up|go down|grow|rise|fall|drop|change))", re.I),
)  # fmt: skip
# after the second amount: a scale or a unit the first may not share, or percentage points
_NOT_THE_SAME_UNIT = {"thousand", "million", "billion", "trillion", "percent", "k", "m", "hundred"}
_PROPERTY = re.compile(
    rf"^is (?P<n>{_NUMBER}) (?:(?:a|an) )?(?:(?P<prime>prime)|(?P<parity>even|odd)|(?:perfect )?(?P<square>square))"
    r"(?: number)?$|^is (?P<year>\d{4}) a leap year$",
    re.I,
)


def worked_out(text: str) -> str | None:
    """The answer to the sum, comparison or question about a number that ``text`` is, as a sentence in the user's
    words ("23 times 47 = 1,081.", "0.9 is bigger than 0.11.", "21 is not a prime number: 3 times 7 = 21."); else
    None."""
    if len(text) > _LONGEST:
        return None
    text = plain(text)
    if said := _part_left(text):
        return said
    lead, question = _asked(text)
    if question is None:
        return None
    if said := _compared(question) or _property(question) or _ordered(question) or _percentage(question):
        return said
    if lead is None or (value := _evaluate(question)) is None or _easy(question, value) or (figure := _said(value)) is None:
        return None
    if value.denominator == 1 and abs(value) < 10**6 and not re.search(r"\d", question):
        figure = number_to_words(int(value))  # "five times five" -> "twenty-five": given "25", the model began "Two ..."
    elif value.denominator in _PART_NAMES and _said_in_parts(question):
        figure = f"{_in_parts(value)}, or {figure}"  # "half of three quarters" -> "three eighths, or 0.375"
    return f"Worked out: the answer is {figure}."


# A sum that goes on from the last one's answer ("Now divide that by four." after "What's seven times eight?"), which the
# model worked on a number of its own ("Fifty-six divided by four equals twelve.", both runs; docs/benchmarks.md, "Sums"):
# "that" is the last sum's value, worked out again from the user's questions, never read from a reply.
_THAT = r"(?:that|it|this|the answer|the result|the total|that number|that answer)"
_GOES_ON_LEAD = re.compile(r"^(?:(?:and|now|ok|okay|so|then|um|alright|right|next)[,.!]? )*", re.I)
_GOES_ON_TAIL = re.compile(r"(?: again)?(?:,? please)?(?: (?:now|then))?[?.!]*$", re.I)
_SAID_AS_A_SUM = re.compile(  # the answer's place ("that") in a sum: "What's that times three?", "What is half of that?"
    rf"^(?:(?:what(?:'s| is)|whats|how much is) )?(?P<before>(?:.+ )?){_THAT}(?P<after>(?: .+)?)$", re.I
)
_ANSWER = "\0"  # the answer's place in a sum, a mark no message has
_BEGUN = "\0 {x}"  # a sum begun with its operator ("Plus ten?"); not as an exclamation ("Plus one!": agreed)
_SAID_TO_DO: tuple[tuple[re.Pattern[str], str, _Operation | None], ...] = tuple(  # a thing to do with the answer, the
    (re.compile(pattern, re.I), sum_, operation)  # sum it is, and what it does with one number said ("{x}") where it has one
    for pattern, sum_, operation in (
        (rf"^divide(?: {_THAT})? by (?P<x>.+)$", "\0 divided by {x}", operator.truediv),
        (rf"^(?:multiply|times)(?: {_THAT})? by (?P<x>.+)$", "\0 times {x}", operator.mul),
        (rf"^add (?P<x>.+?)(?: to {_THAT})?$", "\0 plus {x}", operator.add),
        (rf"^(?:subtract|take away|minus) (?P<x>.+?)(?: from {_THAT})?$", "\0 minus {x}", operator.sub),
        (rf"^take (?P<x>.+?) (?:away|off)(?: from {_THAT})?$", "\0 minus {x}", operator.sub),
        (rf"^square {_THAT}$", "\0 squared", None),
        (rf"^cube {_THAT}$", "\0 cubed", None),
        (rf"^halve {_THAT}$", "half of \0", None),
        (r"^(?P<x>(?:plus|minus|times|divided by|multiplied by|squared|cubed|to the power of)\b.*)$", _BEGUN, None),
    )
)
# what a message that goes on from a sum may be, for telling its note from the user's words
GOES_ON = re.compile(rf"\b{_THAT}\b|^{_GOES_ON_LEAD.pattern[1:]}(?:divide|multiply|times|add|subtract|take|minus|square"
                     r"|cube|halve|plus|divided|multiplied|squared|cubed|to the power)\b", re.I)


def sum_goes_on(questions: list[str]) -> tuple[str, str] | None:
    """For the newest of ``questions`` (the user's, oldest first) that goes on from the last sum's answer ("Now divide
    that by four." after "What's seven times eight?"), the sum in full and its answer ("fifty-six divided by four",
    "fourteen"); a sum that goes on from one that went on too. None where the newest does not go on from a sum."""
    value: Fraction | None = None
    said = None
    for text in questions[-6:]:
        text = plain(text) if len(text) <= _LONGEST else ""  # longer than a sum said aloud
        step = _goes_on(text, value) if value is not None else None
        value, said = step if step else (_value(text), None)
    return said


def _value(text: str) -> Fraction | None:
    """The value of a question that is a sum ("What's seven times eight?"), else None."""
    lead, question = _asked(text)
    return None if lead is None or question is None else _evaluate(question)


def _goes_on(text: str, answer: Fraction) -> tuple[Fraction, tuple[str, str]] | None:
    """The value of ``text`` as a sum on ``answer`` and, for the note, that sum and its answer as said."""
    if not (asked := _GOES_ON_TAIL.sub("", _GOES_ON_LEAD.sub("", text))) or _ANSWER in asked:
        return None
    exact = _said(answer) if (answer * 10**6).denominator == 1 else None
    if exact is None:
        return None
    sums: list[tuple[str, _Operation | None, str]] = []  # a sum said, and what it does with one number said in it
    if found := _SAID_AS_A_SUM.match(asked):
        sums.append((_lowered(found["before"]) + _ANSWER + found["after"], None, ""))
    for pattern, sum_, operation in _SAID_TO_DO:
        if (found := pattern.match(asked)) and not (sum_ is _BEGUN and text.endswith("!")):
            sums.append((sum_.format(x=_lowered(found["x"])) if "{x}" in sum_ else sum_, operation, found.groupdict().get("x")))
    in_words = not re.search(r"\d", text) and answer.denominator == 1 and abs(answer) < 10**6
    for sum_, operation, number in sums:
        if operation is not None:
            value = _done(operation, answer, number)
        else:
            value = _evaluate(sum_.replace(_ANSWER, exact.replace(",", "")))
        if value is None:
            continue
        if abs(value) > _LARGEST or (figure := _said(value)) is None:
            return None
        if value.denominator == 1 and abs(value) < 10**6 and in_words:
            figure = number_to_words(int(value))
        return value, (sum_.replace(_ANSWER, number_to_words(int(answer)) if in_words else exact), figure)
    return None


def _done(operation: _Operation, answer: Fraction, said: str) -> Fraction | None:
    """``operation`` on ``answer`` and the one number ``said`` ("four", "a half", "3 squared"); None where ``said`` is
    more than a number: "Divide that by 2 times 4." is no sum to guess the grouping of."""
    value, rest = _operand(_TOKEN.findall(said))
    if value is None or rest or "".join(_TOKEN.findall(said)) != said.replace(" ", ""):
        return None
    try:
        return operation(answer, value)
    except ZeroDivisionError:
        return None


def _lowered(words: str) -> str:
    """A message's first words as the middle of a sentence: "Double" -> "double"."""
    return words[:1].lower() + words[1:]


def _asked(text: str) -> tuple[re.Match[str] | None, str | None]:
    """``text``'s first words ("What's") and the question after them without its last ("equal to?"), a fraction's
    hyphen read as a space; the question None where it is empty or has a number of too many digits."""
    lead = _LEAD.match(text)
    question = _HYPHENED_PART.sub(r"\1 \2", _TAIL.sub("", text[lead.end() if lead else 0 :]))
    if not question or any(len(digits) > _MOST_DIGITS for digits in re.findall(r"[\d,.]+", question)):
        return lead, None
    return lead, question


def _easy(question: str, value: Fraction) -> bool:
    """A times-table sum ("What is two plus two?", "What is 6 times 7?"): numbers to twelve, one of the four operations,
    a whole answer. The model gets these right without help, and a note costs the reply's first word its prefill and
    the next turn a prefill of this one again (docs/benchmarks.md, "Sums"). Two operations it gets wrong now and then
    ("6 times 2 minus 4 equals 4.")."""
    if value.denominator != 1 or _DONE_TO_A_NUMBER.search(question) or re.search(r"%|percent", question, re.I):
        return False
    if _said_in_parts(question):
        return False
    lowered = [token.lower() for token in _TOKEN.findall(question)]
    if sum(lowered[i : i + len(words)] == list(words) for i in range(len(lowered)) for words in _BINARY) > 1:
        return False
    for word in lowered:
        number = Fraction(word.replace(",", "")) if _DIGITS.fullmatch(word) else _UNITS.get(word)
        if (number is not None and number > 12) or word in _SCALES:
            return False
    return True


def _said_in_parts(question: str) -> bool:
    """Whether ``question`` says a fraction in words ("a half", "three quarters"), which the model adds as wholes
    ("one half plus one third is 1.5")."""
    return any(token.lower() in _PARTS for token in _TOKEN.findall(question))


def _in_parts(value: Fraction) -> str:
    """A fraction of a denominator :data:`_PART_NAMES` names, in words: "three eighths", "one and a half"."""
    whole, rest = divmod(abs(value.numerator), value.denominator)
    one, many = _PART_NAMES[value.denominator]
    part = f"a {one}" if whole and rest == 1 else f"{number_to_words(rest)} {one if rest == 1 else many}"
    return ("minus " if value < 0 else "") + (f"{number_to_words(whole)} and {part}" if whole else part)


def _compared(question: str) -> str | None:
    for pattern in _COMPARED:
        if found := pattern.match(question):
            a, b = number_said(found["a"]), number_said(found["b"])
            if a is None or b is None:
                return None
            if a == b:
                return f"{found['a']} and {found['b']} are equal."
            word = found["cmp"].lower()
            first, second = (found["a"], found["b"]) if (a > b) == (_BIGGER[word] == ">") else (found["b"], found["a"])
            return f"{first} is {word} than {second}."
    return None


def _ordered(question: str) -> str | None:
    """Numbers asked in order, as "Worked out: the answer is 2, 4, 7, 9, from smallest to largest."; not an order of
    things ("Order 2 and 3."): an order is named ("these", "numbers", "in order", "from ... to") or three numbers are."""
    found = _ORDERED.match(question)
    said = re.findall(_LISTED, found["listed"], re.I) if found else []
    if found is None or (len(said) < 3 and not re.search(r"\b(?:these|numbers|in (?:\w+ )?order|from \w+ to)\b", question, re.I)):
        return None
    values = [Fraction(n.replace("minus ", "-")) for n in said]
    first = (found["first"] or found["then"] or "").lower()
    way = (found["way"] or found["way_then"] or "").strip().lower()
    largest_first = first in ("biggest", "largest", "highest", "greatest") or way == "descending"
    ordered = [n for _, n in sorted(zip(values, said), key=lambda pair: pair[0], reverse=largest_first)]
    way = "largest to smallest" if largest_first else "smallest to largest"
    return f"Worked out: the answer is {', '.join(ordered)}, from {way}."  # bare, the model said its own order


def _part_left(text: str) -> str | None:
    """What is left of some things after a part of them is taken, as "Worked out: the answer is 16: a third of 24 is 8,
    and 24 - 8 = 16."; None where the part is no whole number of them or more is told ("... and 3 more")."""
    found = _PART_TAKEN.search(text)
    if found is None or (left := _LEFT.search(found["rest"])) is None or _MORE_TAKEN.search(found["rest"]):
        return None
    if re.search(rf"\d|\b(?:{'|'.join(_UNITS)})\b", text[: found.start("n")], re.I):
        return None  # "I have 4 bags of 12 apples ...", "12 apples and 8 oranges and ate half of them": which "them"
    asked = (left["asked"] or left["remain"] or "").lower()
    if asked and asked not in found["things"].lower().split():
        return None  # "... How many legs are left?"
    count = int(found["n"]) if found["n"].isdigit() else _UNITS.get(found["n"].lower())
    part = found["part"].lower()
    share = Fraction(int(found["percent"]), 100) if found["percent"] else SHARES[part]
    if not count or share >= 1 or (taken := count * share).denominator != 1:
        return None
    return f"Worked out: the answer is {count - taken}: {part} of {count} is {taken}, and {count} - {taken} = {count - taken}."


def _percentage(question: str) -> str | None:
    """A share as a percentage ("Worked out: the answer is 25 percent: 15 of 60.") or a change from one amount to
    another as one; None where the two amounts are in different units or scales, or several changes are told."""
    for pattern in _PERCENT_OF:
        if found := pattern.match(question):
            part, whole = _amount(found["part"]), _amount(found["whole"])
            share = _said(part * 100 / whole) if whole else None
            return f"Worked out: the answer is {share} percent: {found['part']} of {found['whole']}." if share else None
    found = next((found for pattern in _PERCENT_CHANGE if (found := pattern.search(question))), None)
    if found is None or len(re.findall(r"\bfrom \S+ (?:\S+ )?to\b", question)) > 1:
        return None  # "from 50 to 60 dollars, then from 60 to 75"
    units = found.groupdict().get("a_unit"), found.groupdict().get("b_unit")
    if units[0] not in (None, units[1]) or (units[1] or "").strip().lower() in _NOT_THE_SAME_UNIT:
        return None  # "from 50 cents to 2 dollars", "from 500 thousand to 2 million", "from 3 percent to 4 percent"
    a, b = _amount(found["a"]), _amount(found["b"])
    if not a or a == b:
        return None
    change = _said(abs(b - a) * 100 / a)
    way = "an increase" if b > a else "a decrease"
    return f"Worked out: the answer is {way} of {change} percent, from {found['a']} to {found['b']}."


def _amount(said: str) -> Fraction:
    return Fraction(said.lstrip("$").replace(",", ""))


def _property(question: str) -> str | None:
    found = _PROPERTY.match(question)
    if found is None:
        return None
    if found["year"]:
        year = int(found["year"])
        leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
        why = "" if year % 100 or not year % 400 else ": a century year is one only when it divides by 400"
        return f"{year} is {'a' if leap else 'not a'} leap year{why}."
    n = number_said(found["n"])
    if n is None or n.denominator != 1 or abs(n) > _LARGEST:
        return None
    n, said = int(n), found["n"]
    if found["parity"]:
        return f"{said} is {'even' if n % 2 == 0 else 'odd'}."
    if found["square"]:
        root = math.isqrt(n) if n >= 0 else -1
        return f"{said} is a square number: {root} times {root}." if root * root == n else f"{said} is not a square number."
    if n < 2:
        return f"{said} is not a prime number."
    factor = next((f for f in range(2, math.isqrt(n) + 1) if n % f == 0), None) if n < 10**12 else None
    if factor is None:
        return f"{said} is a prime number." if n < 10**12 else None
    return f"{said} is not a prime number: {factor} times {n // factor:,} = {said}."


def number_said(said: str) -> Fraction | None:
    """A number as said ("0.9", "1,024", "twenty five", "minus three"), else None."""
    tokens = _TOKEN.findall(said.replace("-", " - ") if not _DIGITS.fullmatch(said.lstrip("-")) else said)
    value, rest = _read_number(tokens)
    return value if value is not None and not rest else None


def _read_number(tokens: list[str]) -> tuple[Fraction | None, list[str]]:
    """The number at the start of ``tokens`` and the tokens after it."""
    sign = 1
    while tokens and tokens[0].lower() in ("minus", "negative", "-"):
        sign, tokens = -sign, tokens[1:]
    if tokens and _DIGITS.fullmatch(tokens[0]):
        return sign * Fraction(tokens[0].replace(",", "")), tokens[1:]
    total = current = 0
    used = 0
    last = ""  # the kind of the last word read: "one", "teen", "ten", "hundred" or "scale", in the order they are said
    for i, token in enumerate(tokens):
        word = token.lower()
        kind = _kind(word)
        if kind and last in _MAY_FOLLOW[kind]:
            if kind == "hundred":
                current *= 100
            elif kind == "scale":
                total, current = total + current * _SCALES[word], 0
            else:
                current += _UNITS[word]
        elif word == "a" and not used and i + 1 < len(tokens) and tokens[i + 1].lower() in _SCALES:
            current, kind = 1, "one"
        elif word == "and" and last == "hundred" or word == "-" and last == "ten":
            continue
        else:
            break
        used, last = i + 1, kind
    if not used:
        return None, tokens
    return Fraction(sign * (total + current)), tokens[used:]


# which kind of number word may follow which: "nineteen eighty four" and "one twenty" are no number
_MAY_FOLLOW = {"one": {"", "ten", "hundred", "scale"}, "teen": {"", "hundred", "scale"}, "ten": {"", "hundred", "scale"},
               "hundred": {"one", "teen", "ten"}, "scale": {"one", "teen", "ten", "hundred"}}  # fmt: skip


def _kind(word: str) -> str:
    if word in _SCALES:
        return "hundred" if word == "hundred" else "scale"
    if word not in _UNITS:
        return ""
    value = _UNITS[word]
    return "one" if value < 10 else "teen" if value < 20 else "ten"


def _evaluate(question: str) -> Fraction | None:
    """The value of a sum of numbers and operator words, with times and divided by before plus and minus; None where
    ``question`` is anything else or has no operator."""
    tokens = _TOKEN.findall(question)
    if len(tokens) > _MOST_TOKENS or "".join(tokens) != question.replace(" ", "") or not _spaced(question):
        return None  # longer than a sum said aloud, or words or marks the sum has no place for
    values: list[Fraction] = []
    operators: list[tuple[int, _Operation]] = []
    while True:
        value, tokens = _operand(tokens)
        if value is None:
            return None
        values.append(value)
        if not tokens:
            break
        found = next(((words, op) for words, op in _BINARY.items() if [t.lower() for t in tokens[: len(words)]] == list(words)),
                     None)
        if found is None:
            return None
        words, op = found
        tokens = tokens[len(words):]
        while operators and operators[-1][0] >= op[0]:
            _apply(values, operators.pop())
        operators.append(op)
    if not operators and not _DONE_TO_A_NUMBER.search(question):
        return None  # a number alone ("What's 7?")
    if re.search(r"%(?! of)|percent(?! of)", question) and re.search(r"\b(?:plus|minus|add|take away)\b|[-+]", question):
        return None  # "50 minus 20%": 30 by the sum, 40 as a discount
    try:
        while operators:
            _apply(values, operators.pop())
    except (ZeroDivisionError, OverflowError, ValueError):
        return None
    value = values[0]
    return value if abs(value) <= _LARGEST else None


def _spaced(question: str) -> bool:
    """A slash or hyphen between digits without spaces is a date or a phrase ("9/11", "50-50", "24/7"), not a sum."""
    return re.search(r"\d[/-]\d", question) is None


def _apply(values: list[Fraction], op: tuple[int, _Operation]) -> None:
    b, a = values.pop(), values.pop()
    values.append(op[1](a, b))


def _operand(tokens: list[str]) -> tuple[Fraction | None, list[str]]:
    """A number with what is done to it before ("the square root of", "half of") and after ("squared", "to the power
    of 3")."""
    lowered = [t.lower() for t in tokens]
    for words, does in _PREFIX.items():
        if lowered[: len(words)] == list(words):
            value, rest = _operand(tokens[len(words):])
            return (None if value is None else does(value)), rest
    if lowered[:1] in (["a"], ["an"]) and lowered[1:2] and lowered[1] in _PARTS:
        value, tokens = Fraction(1), tokens[1:]  # "a half", "an eighth"
    else:
        value, tokens = _read_number(tokens)
    if value is None:
        return None, tokens
    value, tokens = _in_parts_read(value, tokens)
    if value is None:
        return None, tokens
    while tokens:
        lowered = [t.lower() for t in tokens]
        if lowered[0] == "squared":
            value, tokens = value**2, tokens[1:]
        elif lowered[0] == "cubed":
            value, tokens = value**3, tokens[1:]
        elif lowered[:4] == ["to", "the", "power", "of"] or lowered[:1] == ["^"]:
            exponent, tokens = _read_number(tokens[4 if lowered[0] == "to" else 1:])
            if exponent is None or exponent.denominator != 1 or abs(exponent) > 64 or abs(value) > 10**6:
                return None, tokens
            if tokens[:1] == ["^"] or [t.lower() for t in tokens[:2]] == ["to", "the"]:
                return None, tokens  # "2 ^ 3 ^ 2": worked from the right in writing, said either way
            value = value ** int(exponent) if value or exponent >= 0 else None  # type: ignore[assignment]
            if value is None:
                return None, tokens
        elif lowered[0] == "%" and lowered[1:2] != ["of"]:
            value, tokens = value / 100, tokens[1:]
        else:
            break
        if abs(value) > _LARGEST:
            return None, tokens
    return value, tokens


def _in_parts_read(value: Fraction, tokens: list[str]) -> tuple[Fraction | None, list[str]]:
    """``value`` read on as a fraction in words: "three" + "quarters", "two" + "and a half", "three quarters" + "of
    200"; ``value`` and ``tokens`` as they are where no part's name follows."""
    lowered = [t.lower() for t in tokens[:3]]
    if lowered[:1] and lowered[0] in _PARTS:
        value, tokens = value / _PARTS[lowered[0]], tokens[1:]
        if [t.lower() for t in tokens[:1]] == ["of"]:  # "three quarters of 200"
            of, tokens = _operand(tokens[1:])
            return (None if of is None else value * of), tokens
    elif len(lowered) == 3 and lowered[:2] == ["and", "a"] and lowered[2] in _PARTS and value.denominator == 1:
        value, tokens = value + Fraction(1, _PARTS[lowered[2]]), tokens[3:]  # "two and a half"
    return value, tokens


def _root(value: Fraction, degree: int) -> Fraction | None:
    """The ``degree``-th root, exact where it is whole; None for an even root of a negative number."""
    if value < 0 and degree % 2 == 0:
        return None
    sign = -1 if value < 0 else 1
    near = abs(float(value)) ** (1 / degree)
    whole = Fraction(round(near))
    return sign * whole if whole**degree == abs(value) else Fraction(sign * near)


def _said(value: Fraction) -> str | None:
    """A figure as a voice says it: "1,081", "12.5", "about 33.33", "about 0.1429", "minus 4"; None for one too small to
    say that way."""
    sign = "minus " if value < 0 else ""
    value = abs(value)
    if value.denominator == 1:
        return f"{sign}{value.numerator:,}"
    if (value * 10**6).denominator == 1:
        return f"{sign}{float(value):,.6f}".rstrip("0").rstrip(".")
    if value >= 1:
        return f"{sign}about {float(value):,.2f}".rstrip("0").rstrip(".")
    if value < Fraction(1, 10**4):
        return None
    return f"{sign}about {float(value):.4g}"
