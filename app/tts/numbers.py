"""Numbers as English words, for text that is about to be spoken."""

from __future__ import annotations

_ONES = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen"
).split()
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()
_SCALES = ((10**12, "trillion"), (10**9, "billion"), (10**6, "million"), (1000, "thousand"))
_ORDINAL_WORDS = {
    "one": "first", "two": "second", "three": "third", "five": "fifth", "eight": "eighth",
    "nine": "ninth", "twelve": "twelfth",
}  # fmt: skip


def _below_thousand(n: int) -> str:
    words = []
    hundreds, rest = divmod(n, 100)
    if hundreds:
        words.append(f"{_ONES[hundreds]} hundred")
    if rest >= 20:
        tens, ones = divmod(rest, 10)
        words.append(_TENS[tens] + (f"-{_ONES[ones]}" if ones else ""))
    elif rest or not hundreds:
        words.append(_ONES[rest])
    return " ".join(words)


def number_to_words(n: int) -> str:
    """``1234`` -> ``one thousand two hundred thirty-four``; beyond the trillions, digit by digit."""
    if n < 0:
        return "minus " + number_to_words(-n)
    if n >= 10**15:
        return digits_to_words(str(n))
    words = []
    for scale, name in _SCALES:
        count, n = divmod(n, scale)
        if count:
            words.append(f"{_below_thousand(count)} {name}")
    if n or not words:
        words.append(_below_thousand(n))
    return " ".join(words)


def year_to_words(n: int) -> str:
    """Years the way people say them: 1999 -> nineteen ninety-nine, 1905 -> nineteen oh five."""
    high, low = divmod(n, 100)
    if low == 0:
        return f"{number_to_words(high)} hundred"
    return f"{number_to_words(high)} {'oh ' + _ONES[low] if low < 10 else number_to_words(low)}"


def digits_to_words(digits: str) -> str:
    """Digit by digit: ``"07"`` -> ``zero seven``."""
    return " ".join(_ONES[int(d)] for d in digits if d.isdigit())


def ordinal_to_words(n: int) -> str:
    """``21`` -> ``twenty-first``."""
    words = number_to_words(n)
    head, sep, last = words.rpartition("-") if "-" in words.split()[-1] else words.rpartition(" ")
    if last in _ORDINAL_WORDS:
        last = _ORDINAL_WORDS[last]
    elif last.endswith("y"):
        last = last[:-1] + "ieth"
    else:
        last += "th"
    return head + sep + last


def decimal_to_words(text: str) -> str:
    """A decimal numeral as spoken: ``"3.14"`` -> ``three point one four``; ``"1,000"`` -> ``one thousand``."""
    whole, _, fraction = text.replace(",", "").partition(".")
    spoken = number_to_words(int(whole)) if whole else "zero"
    return f"{spoken} point {digits_to_words(fraction)}" if fraction else spoken
