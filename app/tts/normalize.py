"""Text as a speech synthesiser should read it: no markdown, code or emoji; numbers and symbols as words.

LLM replies are written for the eye (``**bold**``, lists, ``$3.50``, ``3:30 pm``, links). Synthesisers
either read the markup aloud or skip what they cannot pronounce, so every reply chunk passes through
``normalize_for_speech`` first.
"""

from __future__ import annotations

import re

from anyascii import anyascii

from app.tts.numbers import (
    decimal_to_words,
    digits_to_words,
    number_to_words,
    ordinal_to_words,
    year_to_words,
)

_CURRENCIES = {  # symbol -> (unit, units, subunit, subunits)
    "$": ("dollar", "dollars", "cent", "cents"),
    "€": ("euro", "euros", "cent", "cents"),
    "£": ("pound", "pounds", "penny", "pence"),
    "¥": ("yen", "yen", "sen", "sen"),
    "₹": ("rupee", "rupees", "paisa", "paise"),
}
_SCALE_WORDS = {"k": "thousand", "thousand": "thousand", "m": "million", "million": "million",
                "bn": "billion", "b": "billion", "billion": "billion", "trillion": "trillion"}  # fmt: skip
_FRACTIONS = {"1/2": "one half", "1/3": "one third", "2/3": "two thirds", "1/4": "one quarter",
              "3/4": "three quarters"}  # fmt: skip
_SYMBOLS = {"&": " and ", "+": " plus ", "=": " equals ", "@": " at ", "×": " times ", "<": " less than ",
            ">": " greater than ", "|": ", ", "°": " degrees ", "~": " about ", "\\": " ", "^": " ",
            "{": " ", "}": " ", "[": " ", "]": " ", "`": " "}  # fmt: skip

_ABBREVIATIONS = {"dr.": "Doctor", "mr.": "Mister", "mrs.": "Missus", "ms.": "Miz", "prof.": "Professor",
                  "e.g.": "for example", "i.e.": "that is", "etc.": "et cetera", "vs.": "versus",
                  "approx.": "approximately", "u.s.": "U S", "u.k.": "U K", "u.s.a.": "U S A"}  # fmt: skip
_SENTENCE_FINAL = {"etc.", "u.s.", "u.k.", "u.s.a."}
_ABBREVIATION = re.compile(
    r"(?<![\w.])(?:" + "|".join(re.escape(a) for a in sorted(_ABBREVIATIONS, key=len, reverse=True)) + r")(?!\w)",
    re.I,
)
_NUMBER = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"

_CODE_FENCE = re.compile(r"```.*?(?:```|\Z)", re.S)
_INLINE_CODE = re.compile(r"`([^`\n]*)`")
_IMAGE = re.compile(r"!\[([^\]]*)\]\([^)]*\)")
_LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")
_HTML_TAG = re.compile(r"</?[A-Za-z][^>\n]*>")
_HEADING = re.compile(r"^[ \t]{0,3}#{1,6}[ \t]+", re.M)
_QUOTE = re.compile(r"^[ \t]*>+[ \t]?", re.M)
_BULLET = re.compile(r"^[ \t]*(?:[-*+•]|\d{1,3}[.)])[ \t]+", re.M)
_RULE = re.compile(r"^[ \t]*(?:[-*_][ \t]*){3,}$", re.M)
_TABLE_ROW = re.compile(r"^[ \t]*\|(.*)\|[ \t]*$", re.M)
_TABLE_RULE = re.compile(r"^[ \t]*\|?(?:[ \t]*:?-{2,}:?[ \t]*\|)+[ \t]*:?-*:?[ \t]*$", re.M)
# Spans stay within a line and emphasis holds no further markers, so unpaired markers cost linear time.
_STRONG = re.compile(r"(\*\*|__)([^\n]+?)\1")
_EMPHASIS = re.compile(r"(?<![\w*])[*_](?=[^\s*_])([^*_\n]+?)(?<=\S)[*_](?![\w*])")
_STRIKE = re.compile(r"~~(.+?)~~")
_EMAIL = re.compile(r"\b([\w.+-]+)@([\w-]+(?:\.[\w-]+)+)\b")
_URL = re.compile(r"\b(?:https?://|www\.)[^\s<>()]*[^\s<>().,;:!?'\"]", re.I)
_DOMAIN = re.compile(r"\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|org|net|io|dev|ai|edu|gov|app|co\.uk|uk|de)\b", re.I)
_EMOJI = re.compile(
    "[\U0001f000-\U0001faff\U0001f1e6-\U0001f1ff\u2190-\u21ff\u2300-\u23ff\u2460-\u24ff"
    "\u25a0-\u27bf\u2b00-\u2bff\ufe0e\ufe0f\u200d\u20e3]+"
)
# Letters of a script the voice cannot read (Cyrillic, Armenian, Hebrew, Arabic, Indic, Thai, Georgian, kana, Chinese,
# Hangul): the synthesiser says "Japanese letter" for each one ("Hello in Japanese is "こんにちは"." -> "Japanese letter
# Japanese letter ...") or spells Cyrillic letter by letter. A reply that gives how it sounds beside it ("はい" (hai))
# keeps that only; otherwise the words are said as written in Latin letters ("konnichiha", "spasibo", "ni hao"), but
# for Hebrew and Arabic, written without their vowels, which are left out. Greek stays: its letters are symbols too
# ("5 μg", "π").
_SCRIPT = ("\u0400-\u052f\u0530-\u058f\u0590-\u05ff\u0600-\u06ff\u0750-\u077f\u0900-\u0e7f\u10a0-\u10ff"
           "\u1100-\u11ff\u3001-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff01-\uff5e")
_WITHOUT_VOWELS = re.compile(r"[\u0590-\u05ff\u0600-\u06ff\u0750-\u077f]")
# from a run's start only, possessive: no retrying inside a long run
_UNREADABLE = rf"(?<![{_SCRIPT}])(?<![{_SCRIPT}][ \u3000])[{_SCRIPT}]++(?:[ \u3000][{_SCRIPT}]++)*+"
_SOUNDS_AFTER = re.compile(rf"({_UNREADABLE})([\"”'’]?)\s*\(([^\W\d_][^(){_SCRIPT}]{{0,40}})\)")  # "はい" (hai)
_SOUNDS_BEFORE = re.compile(rf"\s*\(\s*{_UNREADABLE}\s*\)")  # hai (はい)
_UNREADABLE_WORDS = re.compile(_UNREADABLE)
_SYLLABLES = re.compile(r"(?<=[a-z])(?=[A-Z])")  # "NiHao", "AnNyeongHaSeYo": a capital for each character
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")
_MONTH = "|".join(_MONTHS)
# a machine's date ("2026-12-05", "2026-12-05T16:45:00Z", as a tool's output gives it and a reply copies it)
_ISO_DATE = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?(?![\w:-])")
# a phone number, said digit by digit in its groups ("555-1234", "020 7946 0958", "+44 20 7946 0958"), not as amounts;
# a year range ("1990-2000") is two groups of four, which a phone number of two groups is not
_PHONE = re.compile(r"(?<![\w.,+-])(\+?)(\d{2,6}(?:[ -]\d{2,6}){1,4})(?![\w.,-]?\d)")
# a number to call ("Call 911.", "dial 999", "the emergency number is 112"): digit by digit, as it is said
_DIALED = re.compile(
    r"\b((?:call|dial|ring|phone|text)(?:s|ed|ing|ling)?(?: up)?|emergency (?:number|line)(?: is|,)?) (\d{2,6})\b(?![.,]\d)", re.I
)
_MONTH_DAY = re.compile(rf"\b({_MONTH})\s+(\d{{1,2}})(?![\d:.]\d|\d|st|nd|rd|th)")
_DAY_MONTH = re.compile(rf"(?<![\d:.,])\b(\d{{1,2}})\s+({_MONTH})\b")
_TIME = re.compile(r"\b(\d{1,2}):(\d{2})\b(?:\s*([ap])\.?\s?m\b\.?)?", re.I)
_HOUR_AMPM = re.compile(r"\b(\d{1,2})\s*([ap])\.?\s?m\b\.?", re.I)
_CURRENCY_BEFORE = re.compile(
    rf"([$€£¥₹])\s?({_NUMBER})(?:\s?(thousand|million|billion|trillion|bn|[kmb])\b)?", re.I
)
_CURRENCY_AFTER = re.compile(rf"\b({_NUMBER})\s?([€£¥₹])")
# money with its cents before the currency's name, as a worked-out figure writes it: "6.50 dollars", not "six point
# five zero dollars"; not a weight ("2.25 pounds of flour")
_CURRENCY_NAMED = re.compile(r"\b(\d{1,3}(?:,\d{3})+|\d+)\.(\d{2}) (dollars|euros|pounds)\b(?! of\b)", re.I)
_NAMED_SYMBOLS = {"dollars": "$", "euros": "€", "pounds": "£"}
_PERCENT = re.compile(rf"(-?)({_NUMBER})\s?%")
_DEGREES = re.compile(rf"(-?)({_NUMBER})\s?°\s?([CF])\b")
# a unit written short after a number: the synthesiser reads it letter by letter ("8,848 m" as "em", "70 mph" as "em pee
# aitch", "112 km/h" as "kay em aitch") or as a word ("3 oz" as "Oz"); the unit's name, one or several
_UNITS = {
    "km/h": "kilometer per hour", "kph": "kilometer per hour", "mph": "mile per hour", "m/s": "meter per second",
    "km²": "square kilometer", "m²": "square meter", "sq km": "square kilometer", "sq m": "square meter",
    "sq ft": "square foot", "sq mi": "square mile", "mm": "millimeter", "cm": "centimeter", "m": "meter",
    "km": "kilometer", "ft": "foot", "yd": "yard", "mi": "mile", "mg": "milligram", "g": "gram", "kg": "kilogram",
    "lb": "pound", "lbs": "pound", "oz": "ounce", "ml": "milliliter", "mL": "milliliter", "gal": "gallon",
    "kW": "kilowatt", "kWh": "kilowatt hour", "MW": "megawatt", "Hz": "hertz", "kHz": "kilohertz",
    "MHz": "megahertz", "GHz": "gigahertz", "KB": "kilobyte", "MB": "megabyte", "GB": "gigabyte", "TB": "terabyte",
    "hr": "hour", "hrs": "hour", "min": "minute", "mins": "minute", "sec": "second", "secs": "second",
    "ms": "millisecond", "kcal": "kilocalorie", "cal": "calorie",
}  # fmt: skip
_PLURAL_UNITS = {"foot": "feet", "hertz": "hertz", "kilohertz": "kilohertz", "megahertz": "megahertz",
                 "gigahertz": "gigahertz"}  # fmt: skip
_ONE_LETTER_UNITS = {"m", "g"}  # only apart from the number: "5m views" is five million
_UNIT_AFTER_NUMBER = re.compile(
    rf"(?<![\w.,])({_NUMBER})((?: (?:thousand|million|billion))?)"
    rf"(?: ?({'|'.join(re.escape(u) for u in sorted(set(_UNITS) - _ONE_LETTER_UNITS, key=len, reverse=True))})"
    rf"| ({'|'.join(_ONE_LETTER_UNITS)}))(?![\w/²&'’-])"
)
_ORDINAL = re.compile(r"\b(\d+)(?:st|nd|rd|th)\b", re.I)
_DECADE = re.compile(r"(?<![\w.,'’])['’]?(\d{1,3}0)['’]?s\b")  # "the 1990s", "the '80s", "in her 20s"
# letters and digits in one word ("B12", "H2O", "5G", "F1", "3D"): apart, or the digits' words run into the letters
_GLUED = re.compile(r"(?<=[^\W\d_])(?=\d)|(?<=\d)(?=[^\W\d_])(?!s\b)")  # "5s" stays "fives"
_TIMES = re.compile(r"(?<=\d)x(?= [^\W\d_])")  # "3x faster", not "2x + 3"
_RANGE = re.compile(r"(?<![\d.,-])(\d{1,4})\s?[–-]\s?(\d{1,4})(?![\d-]|[.,]\d)")  # "... 10-20." ends a sentence
_FRACTION = re.compile(r"(?<![\d/])(\d)/(\d)(?![\d/])")
_NEGATIVE = re.compile(r"(?<![\w.])-(?=\d)")
_VERSION = re.compile(r"\b\d+(?:\.\d+){2,}\b")
_LEADING_POINT = re.compile(r"(?<![\w.])\.(\d+)")
# a word spelled out ("N-E-C-E-S-S-A-R-Y"): said as letters one by one, as a person spells; joined by hyphens, the
# synthesiser runs them together and reads a lone "A" as the article. Three letters or more, or two capitals ("G-O"),
# and not a part of an address ("a-b-c.com", "j-d-x@...")
_SPELLED_OUT = re.compile(r"(?<![\w@./-])(?:[^\W\d_](?:-[^\W\d_]){2,}|[A-Z]-[A-Z])(?![\w-]|[.@]\w)")
# a slash with spaces around it in a sum ("300 pages / 20 pages per day = 15 days"); the synthesiser says "slash"
_DIVIDED_BY = re.compile(r"(?<=\w) / (?=\d[^.!?;/]*(?:=|\bequals\b))")
_PLAIN_NUMBER = re.compile(rf"(?<!\d)({_NUMBER})(?!\d)")
# a number written with a space after its thousands' comma, as the 1.5B writes some ("8,848 meters (29, 791 feet)",
# "5, 900 degrees"): a group of three digits after it that starts with 0 or is followed by a word (a unit) is the
# same number's; not one in a list ("100, 200, 300", "100, 200 or 300")
_SPACED_THOUSANDS = re.compile(
    r"(?<![\d.,])(?<!\d, )(\d{1,3}), (?:(0\d\d)(?![\d,]|\.\d)|(\d{3})(?= (?!(?:and|or|nor|to|then|through|by)\b)[^\W\d_]))"
)
_SPACES = re.compile(r"[ \t]+")
_SPACE_BEFORE_PUNCT = re.compile(r"\s+([,.;:!?])")
_REPEATED_COMMAS = re.compile(r"(?:,\s*){2,}")


def normalize_for_speech(text: str) -> str:
    """Turn one chunk of reply text into plain words for a synthesiser (empty when nothing is speakable)."""
    text = _strip_markup(text)
    text = _SPACED_THOUSANDS.sub(r"\1,\2\3", text)
    text = _ABBREVIATION.sub(_expand_abbreviation, text)
    text = _SPELLED_OUT.sub(lambda m: ", ".join(c.upper() if len(c.upper()) == 1 else c for c in m[0].split("-")), text)
    text = _EMAIL.sub(lambda m: f"{_spell_address(m[1])} at {_spell_address(m[2])}", text)
    text = _URL.sub(lambda m: _spell_address(_url_host(m[0])), text)
    text = _DOMAIN.sub(lambda m: _spell_address(m[0]), text)
    text = _EMOJI.sub(" ", text)
    text = _said_in_latin_letters(text)
    text = _ISO_DATE.sub(_speak_iso_date, text)
    text = _PHONE.sub(_speak_phone_number, text)
    text = _DIALED.sub(lambda m: f"{m[1]} {digits_to_words(m[2])}", text)
    text = _MONTH_DAY.sub(lambda m: f"{m[1]} {ordinal_to_words(int(m[2]))}" if 1 <= int(m[2]) <= 31 else m[0], text)
    text = _DAY_MONTH.sub(lambda m: f"the {ordinal_to_words(int(m[1]))} of {m[2]}" if 1 <= int(m[1]) <= 31 else m[0], text)
    text = _TIME.sub(_speak_time, text)
    text = _HOUR_AMPM.sub(lambda m: f"{number_to_words(int(m[1]))} {m[2].lower()} m{_kept_period(m)}", text)
    text = _CURRENCY_BEFORE.sub(lambda m: _speak_money(m[1], m[2], m[3]), text)
    text = _CURRENCY_AFTER.sub(lambda m: _speak_money(m[2], m[1], None), text)
    text = _CURRENCY_NAMED.sub(lambda m: _speak_money(_NAMED_SYMBOLS[m[3].lower()], f"{m[1]}.{m[2]}", None), text)
    text = _PERCENT.sub(lambda m: f"{'minus ' if m[1] else ''}{decimal_to_words(m[2])} percent", text)
    text = _DEGREES.sub(lambda m: f"{'minus ' if m[1] else ''}{decimal_to_words(m[2])} degrees "
                        f"{'Celsius' if m[3] == 'C' else 'Fahrenheit'}", text)  # fmt: skip
    text = _UNIT_AFTER_NUMBER.sub(_speak_unit, text)
    text = _ORDINAL.sub(lambda m: ordinal_to_words(int(m[1])), text)
    text = _DECADE.sub(_speak_decade, text)
    text = _RANGE.sub(lambda m: f"{_speak_number(m[1])} to {_speak_number(m[2])}", text)
    text = _FRACTION.sub(_speak_fraction, text)
    text = _NEGATIVE.sub("minus ", text)
    text = _VERSION.sub(lambda m: " point ".join(number_to_words(int(p)) for p in m[0].split(".")), text)
    text = re.sub(r"#(?=\s*\d)", " number ", text)
    text = _LEADING_POINT.sub(lambda m: f"point {digits_to_words(m[1])}", text)
    text = _GLUED.sub(" ", _TIMES.sub(" times", text))
    text = _DIVIDED_BY.sub(" divided by ", text)
    text = _PLAIN_NUMBER.sub(lambda m: _speak_number(m[1]), text)
    text = re.sub(r"(?<=\w)/(?=\w)", " ", text)
    text = "".join(_SYMBOLS.get(ch, ch) for ch in text).replace("#", " ").replace("*", " ").replace("_", " ")
    return _tidy(text)


def _said_in_latin_letters(text: str) -> str:
    """Words in a script the voice cannot read as the reply says they sound, or else in Latin letters."""
    text = _SOUNDS_AFTER.sub(lambda m: f"{m[3]}{m[2]}", text)
    text = _SOUNDS_BEFORE.sub("", text)
    return _UNREADABLE_WORDS.sub(
        lambda m: "" if _WITHOUT_VOWELS.search(m[0]) else _SYLLABLES.sub(" ", anyascii(m[0])).lower(), text
    )


def _speak_decade(match: re.Match[str]) -> str:
    """"1990s" -> "nineteen nineties", "80s" -> "eighties", "1900s" -> "nineteen hundreds"."""
    number = int(match[1])
    words = year_to_words(number) if number >= 1000 and number % 1000 else number_to_words(number)
    return words[:-1] + "ies" if words.endswith("y") else words + "s"


def _speak_unit(match: re.Match[str]) -> str:
    """"8,848 m" -> "8,848 meters", "1 km" -> "1 kilometer": the number stays for the number rules."""
    words = _UNITS[match[3] or match[4]].split()
    if match[1] not in ("1", "1.0") or match[2]:
        head = 0 if "per" in words else -1  # "kilometers per hour", "square kilometers", "kilowatt hours"
        words[head] = _PLURAL_UNITS.get(words[head], words[head] + "s")
    return f"{match[1]}{match[2]} {' '.join(words)}"


def _strip_markup(text: str) -> str:
    """Drop code blocks and markdown/HTML markup, keeping the words a reader would hear."""
    text = _CODE_FENCE.sub(" ", text)
    text = _INLINE_CODE.sub(lambda m: m[1] if re.fullmatch(r"[\w .'-]{1,24}", m[1]) else " ", text)
    text = _IMAGE.sub(lambda m: m[1], text)
    text = _LINK.sub(lambda m: m[1], text)
    text = _HTML_TAG.sub(" ", text)
    text = _TABLE_RULE.sub("", text)
    text = _TABLE_ROW.sub(lambda m: ", ".join(cell.strip() for cell in m[1].split("|")), text)
    text = _RULE.sub("", text)
    text = _HEADING.sub("", text)
    text = _QUOTE.sub("", text)
    text = _BULLET.sub("", text)
    text = _STRIKE.sub(r"\1", text)
    text = _STRONG.sub(r"\2", text)
    text = _EMPHASIS.sub(r"\1", text)
    lines = [line.strip() for line in text.splitlines()]
    # A line break ends a phrase (a heading, a list item): keep that pause for the synthesiser.
    return " ".join(line if line[-1] in ".!?,;:" else line + "." for line in lines if line) if len(lines) > 1 \
        else (lines[0] if lines else "")


def _expand_abbreviation(match: re.Match[str]) -> str:
    """``Dr.`` -> ``Doctor``; only a few abbreviations also end sentences (``... etc.``)."""
    key = match[0].lower()
    return _ABBREVIATIONS[key] + (_kept_period(match) if key in _SENTENCE_FINAL else "")


def _spell_address(address: str) -> str:
    return " dot ".join(part for part in re.split(r"\.", address) if part).replace("_", " ")


def _url_host(url: str) -> str:
    host = re.sub(r"^(?:https?://)?(?:www\.)?", "", url, flags=re.I)
    return re.split(r"[/?#:]", host, maxsplit=1)[0]


def _kept_period(match: re.Match[str]) -> str:
    """Keep a sentence-final period that ``p.m.`` swallowed, so the intonation still falls."""
    rest = match.string[match.end():]
    return "." if match[0].endswith(".") and (not rest.strip() or re.match(r"\s+[A-Z]", rest)) else ""


def _speak_iso_date(match: re.Match[str]) -> str:
    """``2026-12-05T16:45:00`` -> ``December fifth, two thousand twenty-six, sixteen forty-five``: the seconds and the
    zone are left out, as a person reading a clock leaves them."""
    month, day = int(match[2]), int(match[3])
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return match[0]
    spoken = f"{_MONTHS[month - 1]} {ordinal_to_words(day)}, {_speak_number(match[1])}"
    clock = _clock_words(int(match[4]), int(match[5]), None) if match[4] else None
    return f"{spoken}, {clock}" if clock else spoken


def _speak_phone_number(match: re.Match[str]) -> str:
    groups = re.split(r"[ -]", match[2])
    digits = sum(len(g) for g in groups)
    if not 7 <= digits <= 15 or (len(groups) == 2 and not match[1] and not groups[0].startswith("0")
                                 and (len(groups[0]), len(groups[1])) != (3, 4)):  # fmt: skip
        return match[0]
    return ("plus " if match[1] else "") + ", ".join(digits_to_words(g) for g in groups)


def _speak_time(match: re.Match[str]) -> str:
    spoken = _clock_words(int(match[1]), int(match[2]), match[3])
    if spoken is None:
        return match[0]
    return spoken + (f" {match[3].lower()} m{_kept_period(match)}" if match[3] else "")


def _clock_words(hour: int, minute: int, half: str | None) -> str | None:
    """A clock time's words before its "a m" / "p m" (None: no clock time)."""
    if hour > 24 or minute > 59:
        return None
    spoken = number_to_words(hour)
    if minute == 0:
        spoken += "" if half else " o'clock"
    elif minute < 10:
        spoken += f" oh {number_to_words(minute)}"
    else:
        spoken += f" {number_to_words(minute)}"
    return spoken


def _speak_money(symbol: str, amount: str, scale: str | None) -> str:
    unit, units, subunit, subunits = _CURRENCIES[symbol]
    if scale:
        return f"{decimal_to_words(amount)} {_SCALE_WORDS[scale.lower()]} {units}"
    whole_text, _, fraction = amount.replace(",", "").partition(".")
    whole = int(whole_text or 0)
    cents = int((fraction + "00")[:2]) if fraction else 0
    parts = []
    if whole or not cents:
        parts.append(f"{number_to_words(whole)} {unit if whole == 1 else units}")
    if cents:
        parts.append(f"{number_to_words(cents)} {subunit if cents == 1 else subunits}")
    return " and ".join(parts)


def _speak_fraction(match: re.Match[str]) -> str:
    return _FRACTIONS.get(match[0]) or f"{number_to_words(int(match[1]))} over {number_to_words(int(match[2]))}"


def _speak_integer(digits: str) -> str:
    return digits_to_words(digits) if len(digits) > 1 and digits.startswith("0") else number_to_words(int(digits))


def _speak_number(numeral: str) -> str:
    if "." not in numeral and "," not in numeral:
        if len(numeral) == 4 and 1100 <= int(numeral) <= 1999:
            return year_to_words(int(numeral))
        return _speak_integer(numeral)
    return decimal_to_words(numeral)


def _tidy(text: str) -> str:
    text = _SPACES.sub(" ", text.replace("\n", " "))
    text = _SPACE_BEFORE_PUNCT.sub(r"\1", text)
    text = _REPEATED_COMMAS.sub(", ", text)
    text = text.strip(" ,;:")
    return "" if not re.search(r"\w", text) else text
