"""The day or the time a question counts to from one it gives, worked out and written into the question for the model.

The 1.5B counts days and hours as it does sums it cannot do, with confidence: "If today is Friday, what day will it be
in 4 days?" -> "Monday", "If today is Sunday, what is the day after tomorrow?" -> "Monday", "If it's 3 pm now, what
time will it be in 5 hours?" -> "10 pm", and "What day of the week was July 4, 1776?" it declines as a question about
today's date (docs/benchmarks.md, "Days and times"). As a sum gets its answer (``app.answers.arithmetic``), such a
question gets the day or time it asks for beside it: a weekday some days after or before a given one ("... if today
is Monday", "What day is 10 days after Saturday?"), a month some months after or before a given one ("What month comes
two months after November?" -> "February" once in two), the weekday of a date with its year ("July 4, 1776",
"Christmas 2026"), the days from a date given to another or a holiday ("If today is December 20, how many days until
Christmas?"), and a clock time some hours or minutes after or before a given one. Nothing here reads the clock: a
question that does not say the day or time it counts from ("What day is it in three days?") gets nothing.
"""

from __future__ import annotations

import datetime
import re

from app.answers.arithmetic import NUMBER_WORDS, NUMBER_WORDS_PATTERN
from app.answers.wording import capitalized, plain

_LONGEST = 160  # characters: such a question is short, and longer text costs the patterns more
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
          "December")  # fmt: skip
_WEEKDAY = rf"(?:{'|'.join(WEEKDAYS)})"
_COUNT = rf"\d{{1,4}}|{NUMBER_WORDS_PATTERN}|an?"
_DAYS_IN = {"day": 1, "week": 7, "fortnight": 14}
_SPAN = rf"(?P<n>{_COUNT}) (?P<unit>days?|weeks?|fortnights?)(?:,? and (?P<more>{_COUNT}) days?)?"  # "2 weeks and 3 days"
_ASKS_DAY = re.compile(r"\b(?:what|which)(?:'s| is| was| will be)?(?: the)? (?:day|weekday)\b", re.I)
# "what time will it be ...", not "What time should I go to bed if ...?": the time then is another one
_ASKS_TIME = re.compile(r"\bwhat time (?:will it be|would it be|is it|was it|will the clock (?:show|say)"
                        r"|is (?P<from_clock>(?=(?:[\w']+ ){1,5}(?:after|before)\b)))", re.I)  # "... half an hour after 11:45?"
# more to count after a while from a clock time: "What time is 3 hours after 10 pm, then 20 minutes more?"
_MORE = re.compile(r"\b(?:then|plus|minus|more|another|and)\b", re.I)
# the day counted from: "if today is Friday", "yesterday was Monday", "10 days after Saturday"
_TODAY_IS = re.compile(rf"\b(?P<ref>today|yesterday|tomorrow)(?:'s| is| was| will be| would be) (?P<day>{_WEEKDAY})\b", re.I)
_FROM_DAY = re.compile(rf"\b{_SPAN} (?P<way>after|before|from) (?:a |next |last )?(?P<day>{_WEEKDAY})\b", re.I)
_SPAN_WAY = re.compile(  # when, counted from today
    rf"\b{_SPAN} (?P<way>from now|from today|later|after that|ago|before that|earlier)\b", re.I
)
_IN_SPAN = re.compile(rf"\bin {_SPAN}\b", re.I)
_NAMED_DAY = re.compile(r"\b(?P<named>the day after tomorrow|the day before yesterday|tomorrow|yesterday)\b", re.I)
_NAMED = {"the day after tomorrow": 2, "the day before yesterday": -2, "tomorrow": 1, "yesterday": -1}
_REF = {"today": 0, "yesterday": -1, "tomorrow": 1}
# a date with its year: "July 4, 1776", "4 July 1776", "the 4th of July, 1776", "Christmas 2026"
_HOLIDAYS = {
    "christmas eve": (12, 24), "christmas day": (12, 25), "christmas": (12, 25), "new year's eve": (12, 31),
    "new year's day": (1, 1), "halloween": (10, 31), "valentine's day": (2, 14), "independence day": (7, 4),
    "the fourth of july": (7, 4), "boxing day": (12, 26),
}  # fmt: skip
_MONTH = rf"(?P<month>{'|'.join(MONTHS)})"
_DAY_OF_MONTH = r"(?P<day>\d{1,2})(?:st|nd|rd|th)?"
_YEAR = r",? (?:in )?(?P<year>\d{4})\b"
_DATES = (
    re.compile(rf"\b{_MONTH} (?:the )?{_DAY_OF_MONTH}{_YEAR}", re.I),
    re.compile(rf"\b(?:the )?{_DAY_OF_MONTH}(?: of)? {_MONTH}{_YEAR}", re.I),
    re.compile(rf"\b(?P<holiday>{'|'.join(re.escape(name) for name in _HOLIDAYS)}){_YEAR}", re.I),
)
# a month some months after or before a given one: "What month comes two months after November?", "If it's March, what
# month will it be in 10 months?"
_ASKS_MONTH = re.compile(r"\b(?:what|which) month\b", re.I)
_MONTHS_FROM = re.compile(rf"\b(?P<n>{_COUNT}) months? (?P<way>after|before|from) {_MONTH}\b", re.I)
_MONTH_IS = re.compile(rf"\b(?:it(?:'s| is| was)|this month is|the month is) (?:now )?{_MONTH}\b", re.I)
_MONTHS_WAY = re.compile(
    rf"\bin (?P<n>{_COUNT}) months?\b|\b(?P<n_way>{_COUNT}) months? (?P<way>from now|later|ago|earlier)\b", re.I
)
# a clock time said in words, which the patterns here read once written in digits: "half past seven" -> "7:30",
# "quarter to nine" -> "8:45", "twenty past six in the evening" -> "6:20 pm", "seven o'clock" -> "7 o'clock"
_HOUR_WORDS = {word: hour for hour, word in enumerate("one two three four five six seven eight nine ten eleven twelve".split(),
                                                      1)}  # fmt: skip
_HOUR_SAID = rf"(?:{'|'.join(_HOUR_WORDS)}|1[0-2]|[1-9])"
_MINUTE_WORDS = {"quarter": 15, "half": 30, "five": 5, "ten": 10, "twenty": 20, "twenty-five": 25, "twenty five": 25}
_DAY_PART = r"(?P<part> in the (?:morning|afternoon|evening)| at night| ?[ap]\.?m\b\.?)?"
_CLOCK_SAID = re.compile(
    r"\b(?:a )?(?:(?P<words>quarter|half|twenty[ -]five|twenty|ten|five)(?: minutes)? (?P<way>past|after|to|till|til|of|before)"
    rf"|(?P<digits>[1-5]?[0-9]) minutes? (?P<digits_way>past|to)) (?P<hour>{_HOUR_SAID})\b(?! ?(?:hours?|minutes?|days?)\b)"
    rf"(?: o'clock)?{_DAY_PART}"
    rf"|\b(?P<hour_only>{'|'.join(_HOUR_WORDS)}) o'clock{_DAY_PART.replace('part', 'part_only')}",
    re.I,
)
_FIRST_YEAR = 1583  # the Gregorian calendar's first whole year; before it, places counted days differently
_VERB = re.compile(r"\b(was|is|will be)\b", re.I)
# a clock time counted from: "if it's 3 pm", "5 hours after 10:30", and how long: "in 45 minutes", "2 hours later"
CLOCK = r"(?P<hour>\d{1,2})(?:[:.](?P<minute>\d{2}))?(?: ?(?P<half>[ap])\.?m\b\.?| o'clock)?|(?P<named_time>noon|midnight)"
_IT_IS = re.compile(rf"\bit(?:'s| is| was) (?:now )?(?:{CLOCK})", re.I)
_DURATION = (
    r"(?:(?P<hours>\d{1,3}|[a-z]+|an?)(?P<and_half> and a half)? hours?(?P<half_after> and a half)?"
    r"(?:,? (?:and )?(?P<minutes>\d{1,3}|[a-z]+(?:[ -][a-z]+)?) minutes?)?"
    r"|(?P<only_minutes>\d{1,4}|[a-z]+(?:[ -][a-z]+)?) minutes?|(?P<half_hour>half an hour|a half hour)"
    r"|(?P<quarter>a quarter of an hour|a quarter hour))"
)
_TIME_WAY = re.compile(
    rf"\b{_DURATION} (?P<way>from now|later|after(?: that| it)?|before(?: that| it)?|ago|earlier)(?: (?:{CLOCK}))?", re.I
)
_IN_TIME = re.compile(rf"\bin {_DURATION}", re.I)
# when something that starts at a clock time and takes a while ends: "If my train leaves at 7:50 am and the trip takes
# 2 hours and 25 minutes, what time do I arrive?", "If I go to bed at 11 pm and sleep 8 hours, when do I wake up?"
# Only where the question asks when it ends, it starts at the time, and the while is what it takes: "If I need to be
# there at 9 am and it takes 45 minutes, when should I leave?" counts back, and "my flight was delayed 3 hours" is no end.
_ASKS_WHEN = re.compile(
    r"\b(?:what time|when)\b.*\b(?:arrive|arriving|end|ends|finish|finished|land|done|ready|over|wake up|get (?:there|home"
    r"|back|in)|be back|take it out|come out|stop)\b",
    re.I,
)
_NOT_AN_END = re.compile(
    r"\b(?:before|need to be|have to be|should i (?:leave|go|start)|delayed|difference|best time|how long)\b", re.I
)
_STARTS_AT = re.compile(
    rf"\b(?:leaves?|leaving|left|starts?|starting|started|begins?|began|departs?|departed|bed|in|off|opens?|opened|nap)\b"
    rf"(?: [\w']+){{0,4}} at (?:{CLOCK})",
    re.I,
)
_AT_A_TIME = re.compile(rf"\bat (?:{CLOCK})", re.I)
_TAKES = re.compile(rf"\b(?:takes?|took|lasts?|runs?(?: for)?|for|needs?|sleep|work|bakes?|cooks?|is) {_DURATION}", re.I)
# what it takes said before its start, of the same thing: "If a movie is 2 hours long and starts at 7:30, ..."
_LONG_AND_STARTS = tuple(re.compile(rf"\b{lasts} {_DURATION}{long},? and (?:it )?(?:starts?|begins?)\b", re.I)
                         for lasts, long in (("(?:is|'s)", " long"), ("lasts?", "")))
# how long from one date or clock time to another: "How many days are there from March 1 to April 15?", "How many
# hours is it from 9 am to 5 pm?"
_BETWEEN = re.compile(
    r"\bhow many (?P<unit>days|weeks|nights|hours|minutes) (?:are there |is it |are )?(?:from|between) (?P<a>[^?!]{1,30}?),?"
    r" (?:to|and|until|till|(?P<through>through)) (?P<b>[^?!]{1,30}?)(?: (?P<inclusive>inclusive)| exactly)?[?.!]*$",
    re.I,
)
_SHORT_DATES = (
    re.compile(rf"{_MONTH} (?:the )?{_DAY_OF_MONTH}(?:,? (?P<year>\d{{4}}))?", re.I),
    re.compile(rf"(?:the )?{_DAY_OF_MONTH}(?: of)? {_MONTH}(?:,? (?P<year>\d{{4}}))?", re.I),
)
_CLOCK_ALONE = re.compile(CLOCK, re.I)
# the days from the date it is to another or a holiday: "If today is December 20, how many days until Christmas?"
_DATE_SAID = r"(?:[a-z]+ \d{1,2}(?:st|nd|rd|th)?|\d{1,2}[a-z]{0,2}(?: of)? [a-z]+)"  # "March 3rd", "3 March", "the 3rd of March"
_DATE_IS = re.compile(
    r"(?:\btoday is|\btoday's|(?:^|[.!?] |\bif |\bwhen |\bnow )(?:it's|it is|the date is))(?: now)? (?:the )?"
    rf"(?P<a>{_DATE_SAID}(?:,? \d{{4}})?)\b",
    re.I,
)
# a day of the user's given its date: "My birthday is March 3. ... how many days until my birthday?"
_EVENT = (r"(?:my|our|his|her|their|the) (?:birthday|anniversary|wedding|party|exam|trip|holiday|vacation|appointment"
          r"|interview)")
_CHANGED = re.compile(r"\b(?:moved|actually|changed|postponed|rescheduled|instead|thought|was)\b", re.I)
_NOT_TODAY = re.compile(r"\b(?:tomorrow|yesterday|next (?:week|month)|last (?:week|month)|in \w+ days?|days? ago|including"
                        r"|inclusive|counting today)\b", re.I)  # "If it is December 20 tomorrow, ..."
_HOLIDAY_OR_EVENT = rf"{'|'.join(re.escape(name) for name in _HOLIDAYS)}|{_EVENT}"
# the days to a holiday or an event asked alone, no date given: counted from today, which nothing here knows (a note
# says so and asks for it, ``app/answers/notes.py``; told none, the model made a count up: "There are 24 days until
# Christmas.")
COUNTDOWN_ALONE = re.compile(
    r"^(?:(?:so|and|ok|okay|hey|um)[,]? )*how (?:many (?:days|weeks|nights|sleeps|months)|long) (?:is it |are there "
    r"|are left |do i have |have i got |left |more |is left )?(?:until|till|til|to|before) "
    rf"(?:{_HOLIDAY_OR_EVENT}|the weekend|summer|easter|thanksgiving"
    rf"|(?:{'|'.join(MONTHS)}) \d{{1,2}}(?:st|nd|rd|th)?)(?: (?:now|from now|from today))?[?.!]*$",
    re.I,
)
# the date told alone, as the answer to that note: "Today is December 7."
DATE_TOLD = re.compile(
    rf"^(?:(?:ok|okay|well|so|um|oh)[,]? )*(?:today is|today's|it's|it is|the date is|today's date is)(?: now)? (?:the )?"
    rf"{_DATE_SAID}(?:,? \d{{4}})?[.!]*$",
    re.I,
)
_DAYS_UNTIL = re.compile(
    r"\bhow many (?P<unit>days|weeks|nights|sleeps) (?:are there |is it |are left |do i have |have i got |left |more )?"
    rf"(?:until|till|til|to|before) (?P<b>{_HOLIDAY_OR_EVENT}|[a-z]+ \d{{1,2}}[a-z]{{0,2}}"
    r"|(?:the )?\d{1,2}[a-z]{0,2}(?: of)? [a-z]+)(?=\s*(?:$|[?.!,]|if\b|when\b))",
    re.I,
)
# how long from the time it is to another: "If it's half past seven, how many minutes until eight?"
_UNTIL = re.compile(
    r"\bhow (?:many (?P<unit>minutes|hours)|long)(?: (?:is it|are there|is there|do i have|have i got|left|more))?"
    r" (?:until|till|til|to|before) (?P<b>\d{1,2}(?:[:.]\d{2})?(?: ?[ap]\.?m\b\.?| o'clock)?|[a-z]+(?: o'clock)?)"
    r"(?=\s*(?:[?.!,]|if\b|$))",
    re.I,
)
# how long from one clock time to another said as two events: "If I go to bed at 11 pm and wake up at 7 am, how many
# hours did I sleep?" (the model: "4 hours"), "I start at 9 am and finish at 5:30 pm. How long is my day?"
_AT_AND_AT = re.compile(
    r"\bat (?P<a>[\w:.]+(?: ?[ap]\.?m\.?)?) and (?:[\w']+ ){1,4}?at (?P<b>[\w:.]+(?: ?[ap]\.?m\.?)?)[,.]? (?:so |then )?"
    r"how (?:many (?P<unit>hours|minutes)|long)\b",
    re.I,
)


def day_or_time(text: str) -> str | None:
    """The weekday or clock time ``text`` counts to from one it gives, as "Worked out: the answer is Tuesday." or
    "Worked out: July 4, 1776 was a Thursday."; else None."""
    if len(text) > _LONGEST:
        return None
    text = clock_in_digits(plain(text))
    answer = (_weekday_counted(text) or _weekday_of_date(text) or _month_counted(text) or _time_counted(text)
              or _ends_at(text) or _between(text))  # fmt: skip
    return f"Worked out: {answer}." if answer else None


def _answer(said: str) -> str:
    return f"the answer is {said}"


def count_of(said: str) -> int | None:
    """A count said as digits or words ("12", "twenty-five", "a"), else None."""
    said = said.lower().replace("-", " ")
    if said in ("a", "an"):
        return 1
    if said.isdigit():
        return int(said)
    tens, _, unit = said.partition(" ")  # "twenty-five"
    if unit and NUMBER_WORDS.get(tens, 0) >= 20 and not NUMBER_WORDS[tens] % 10 and 0 < NUMBER_WORDS.get(unit, 10) < 10:
        return NUMBER_WORDS[tens] + NUMBER_WORDS[unit]
    return NUMBER_WORDS.get(said)


def _span_days(found: re.Match[str]) -> int | None:
    count, more = count_of(found["n"]), count_of(found["more"]) if found["more"] else 0
    return None if count is None or more is None else count * _DAYS_IN[found["unit"].lower().rstrip("s")] + more


def _weekday_counted(text: str) -> str | None:
    if not _ASKS_DAY.search(text) or re.search(r"\bof the (?:month|year)\b", text, re.I):
        return None
    if given := _FROM_DAY.search(text):
        days = _span_days(given)
        if days is None:
            return None
        start = WEEKDAYS.index(given["day"].capitalize())
        return _answer(WEEKDAYS[(start + (-days if given["way"].lower() == "before" else days)) % 7])
    given = _TODAY_IS.search(text)
    if given is None:
        return None
    today = WEEKDAYS.index(given["day"].capitalize()) - _REF[given["ref"].lower()]
    if found := _SPAN_WAY.search(text) or _IN_SPAN.search(text):
        days = _span_days(found)
        if days is None:
            return None
        way = found["way"].lower() if "way" in found.groupdict() else ""
        return _answer(WEEKDAYS[(today + (-days if way in ("ago", "before that", "earlier") else days)) % 7])
    named = [found for found in _NAMED_DAY.finditer(text) if not given.start() <= found.start() < given.end()]
    if named:
        return _answer(WEEKDAYS[(today + _NAMED[named[0]["named"].lower()]) % 7])
    # "If yesterday was Monday, what day is it today?"
    return _answer(WEEKDAYS[today % 7]) if given["ref"].lower() != "today" and re.search(r"\btoday\b", text, re.I) else None


def _month_counted(text: str) -> str | None:
    if not _ASKS_MONTH.search(text):
        return None
    if given := _MONTHS_FROM.search(text):
        count, back = count_of(given["n"]), given["way"].lower() == "before"
    elif (given := _MONTH_IS.search(text)) and (span := _MONTHS_WAY.search(text)):
        count, back = count_of(span["n"] or span["n_way"]), (span["way"] or "").lower() in ("ago", "earlier")
    else:
        return None
    if count is None:
        return None
    start = MONTHS.index(given["month"].capitalize())
    return _answer(MONTHS[(start + (-count if back else count)) % 12])


def _weekday_of_date(text: str) -> str | None:
    if not _ASKS_DAY.search(text):  # "what day of the week", "which day"
        return None
    found = next((found for pattern in _DATES if (found := pattern.search(text))), None)
    if found is None:
        return None
    year = int(found["year"])
    if found.groupdict().get("holiday"):
        month, day = _HOLIDAYS[found["holiday"].lower()]
    else:
        month, day = MONTHS.index(found["month"].capitalize()) + 1, int(found["day"])
    if year < _FIRST_YEAR:
        return None
    try:
        date = datetime.date(year, month, day)
    except ValueError:  # "February 30"
        return None
    verb = _VERB.search(text)
    said = f"{found[0].strip(' ,')} {verb[1].lower() if verb else 'is'} a {WEEKDAYS[date.weekday()]}"
    return capitalized(said) if said.startswith("the ") else said


def _time_counted(text: str) -> str | None:
    if (asked := _ASKS_TIME.search(text)) is None:
        return None
    offset = _TIME_WAY.search(text) or _IN_TIME.search(text)
    if offset is None:
        return None
    from_a_clock = offset.groupdict().get("hour") or offset.groupdict().get("named_time")  # "2 hours after 10 am"
    if asked["from_clock"] is not None and (not from_a_clock or _MORE.search(text, offset.end())):
        return None  # "What time is 2 hours before my 9 am flight?": a while from an event, not from a clock time
    minutes = _minutes(offset)
    if minutes is None:
        return None
    way = offset.groupdict().get("way") or ""
    if way.lower().startswith(("before", "ago", "earlier")):
        minutes = -minutes
    start = offset if from_a_clock else _IT_IS.search(text)
    if start is None or (clock := clock_minutes(start)) is None:
        return None
    return _answer(said_clock(clock + minutes, clock_style(start)))


def _ends_at(text: str) -> str | None:
    starts = list(_STARTS_AT.finditer(text))
    if (not _ASKS_WHEN.search(text) or _NOT_AN_END.search(text) or len(starts) != 1
            or len(_AT_A_TIME.findall(text)) != 1 or (start := clock_minutes(starts[0])) is None):  # fmt: skip
        return None
    takes = list(_TAKES.finditer(text, starts[0].end()))
    if not takes:
        takes = [found for pattern in _LONG_AND_STARTS if (found := pattern.search(text)) and found.end() > starts[0].start()]
    if len(takes) != 1 or (minutes := _minutes(takes[0])) is None:
        return None
    return _answer(said_clock(start + minutes, clock_style(starts[0])))


def _minutes(found: re.Match[str]) -> int | None:
    if found["half_hour"]:
        return 30
    if found["quarter"]:
        return 15
    if found["only_minutes"]:
        return count_of(found["only_minutes"])
    hours = count_of(found["hours"])
    extra = count_of(found["minutes"]) if found["minutes"] else 0
    if hours is None or extra is None:
        return None
    return hours * 60 + (30 if found["and_half"] or found["half_after"] else 0) + extra


def clock_in_digits(text: str) -> str:
    """``text`` with the clock times it says in words written in digits ("half past seven in the evening" -> "7:30 pm")."""
    if "o'clock" not in text and not re.search(r"\b(?:past|to|till|til|after|of|before)\b", text):
        return text  # no clock time said in words: the common case, at the cost of a search
    return _CLOCK_SAID.sub(_in_digits, text)


def _in_digits(found: re.Match[str]) -> str:
    said = (found["hour"] or found["hour_only"]).lower()
    hour = _HOUR_WORDS.get(said) or int(said)
    part = (found["part"] or found["part_only"] or "").strip().lower()
    if found["hour_only"]:  # "seven o'clock in the morning" -> "7 am"
        return f"{hour}{_half_of_day(hour, part)}" if part else f"{hour} o'clock"
    way = (found["way"] or found["digits_way"]).lower()
    if found["digits"] is None and way in ("after", "before") and found["words"].lower() not in ("quarter", "half"):
        return found[0]  # "ten after six" is a clock time, "ten minutes after six" a while after one: left as said
    minutes = _MINUTE_WORDS[found["words"].lower()] if found["words"] else int(found["digits"])
    if way in ("to", "till", "til", "of", "before"):
        if found["words"] and found["words"].lower() == "half":
            return found[0]  # "half to nine" is no English clock time
        hour, minutes = (hour - 2) % 12 + 1, 60 - minutes
    return f"{hour}:{minutes:02d}{_half_of_day(hour, part)}"


def _half_of_day(hour: int, part: str) -> str:
    """" am" or " pm" for a part of the day said with a clock time ("in the evening", "at night", "p.m."), else ""."""
    if not part:
        return ""
    if part.startswith(("a", "p")) and len(part.rstrip(".")) <= 3:
        return f" {part[0]}m"
    if part == "at night":
        return " am" if hour == 12 or hour < 5 else " pm"
    return " am" if part.endswith("morning") else " pm"


def clock_minutes(found: re.Match[str]) -> int | None:
    """Minutes after midnight of the time ``found`` holds, else None."""
    if found["named_time"]:
        return 12 * 60 if found["named_time"].lower() == "noon" else 0
    hour, minute = int(found["hour"]), int(found["minute"] or 0)
    if minute > 59 or hour > 23 or (found["half"] and not 1 <= hour <= 12):
        return None
    if found["half"]:
        hour = hour % 12 + (12 if found["half"].lower() == "p" else 0)
    return hour * 60 + minute


def _on_a_dial(found: re.Match[str]) -> bool:
    """A time said without am or pm whose hour is one of a dial's ("9", "10:30"), not a 24-hour clock's ("18:30")."""
    return not found["half"] and not found["named_time"] and 1 <= int(found["hour"]) <= 12


def clock_style(found: re.Match[str]) -> str:
    return "dial" if _on_a_dial(found) else "24-hour" if not found["half"] and not found["named_time"] else "am-pm"


def said_clock(minutes: int, style: str) -> str:
    """"8 pm", "11:15 am", "noon"; a time asked without am or pm as it was asked: on a dial ("1:30") or a 24-hour clock
    ("18:30")."""
    minutes %= 24 * 60
    hour, minute = divmod(minutes, 60)
    if style == "24-hour":
        return f"{hour}:{minute:02d}"
    if style == "dial":
        return f"{hour % 12 or 12}:{minute:02d}"
    if minute == 0 and hour in (0, 12):
        return "midnight" if hour == 0 else "noon"
    shown = hour % 12 or 12
    return f"{shown}{f':{minute:02d}' if minute else ''} {'am' if hour < 12 else 'pm'}"


def _between(text: str) -> str | None:
    if (until := _UNTIL.search(text)) and (now := _IT_IS.search(text)):
        target = until["b"].lower().removesuffix(" o'clock")
        target = str(_HOUR_WORDS[target]) if target in _HOUR_WORDS else target
        return _clock_between(_CLOCK_ALONE.search(now[0])[0], target, (until["unit"] or "long").lower())
    if at_and_at := _AT_AND_AT.search(text):
        return _clock_between(at_and_at["a"], at_and_at["b"], (at_and_at["unit"] or "hours").lower())
    if (until := _DAYS_UNTIL.search(text)) and (today := _DATE_IS.search(text)) and not _NOT_TODAY.search(text):
        return _days_until(until["unit"].lower(), today["a"], until["b"], text)
    found = _BETWEEN.search(text)
    if found is None:
        return None
    if found["unit"].lower() in ("hours", "minutes"):
        return _clock_between(found["a"], found["b"], found["unit"].lower())
    dates = [next((match for pattern in _SHORT_DATES if (match := pattern.fullmatch(side))), None)
             for side in found.group("a", "b")]
    if None in dates:
        return None
    return _days_between(found["unit"].lower(), *dates, both_days=bool(found["through"] or found["inclusive"]))


def _days_until(unit: str, today: str, target: str, text: str) -> str | None:
    """The days from the date ``today`` says to ``target``, a date, a holiday or a day ``text`` dates ("my birthday"), in
    this year or the next; a day that does not come round again ("my exam") only in this year."""
    once = False
    if holiday := _HOLIDAYS.get(target.lower()):
        target = f"{MONTHS[holiday[0] - 1]} {holiday[1]}"
    elif re.fullmatch(_EVENT, target, re.I):
        dated_as = rf"\b{re.escape(target)}(?:'s| is| falls)(?: on)? (?:the )?(?P<date>{_DATE_SAID})\b"
        dated = list(re.finditer(dated_as, text, re.I))
        if len(dated) != 1 or _CHANGED.search(text) or re.match(r",? \d{4}\b", text[dated[0].end():]):
            return None  # "... but we moved it to June 8", "My wedding is March 3, 2027"
        once = re.search(r"birthday|anniversary", target, re.I) is None
        target = dated[0]["date"]
    dates = [next((match for pattern in _SHORT_DATES if (match := pattern.fullmatch(side))), None) for side in (today, target)]
    if None in dates:
        return None
    if once and _month_day(dates[1]) < _month_day(dates[0]):
        return None  # "Today is March 10. My exam is March 3.": past, not next year's
    return _days_between("days" if unit == "sleeps" else unit, *dates, both_days=False)


def _month_day(date: re.Match[str]) -> tuple[int, int]:
    return MONTHS.index(date["month"].capitalize()) + 1, int(date["day"])


def _days_between(unit: str, a: re.Match[str], b: re.Match[str], *, both_days: bool) -> str | None:
    """Days from ``a`` to ``b`` ("March 1 to April 15" is 45; "through" or "inclusive" counts both days, 46)."""
    year_a, year_b = (int(a["year"]) if a["year"] else None), (int(b["year"]) if b["year"] else None)
    if (year_a or year_b or _FIRST_YEAR) < _FIRST_YEAR:
        return None
    counts = set()
    for year in ((year_a or year_b,) if year_a or year_b else (2025, 2027, 2028)):  # without a year: a leap February or not
        try:
            start = datetime.date(year_a or year, *_month_day(a))
            end = datetime.date(year_b or year, *_month_day(b))
            if end < start and not year_b:  # "from December 20 to January 5"
                end = end.replace(year=end.year + 1)
        except ValueError:  # "February 30", or February 29 in the year after
            continue
        counts.add((end - start).days + both_days)
    if not counts or min(counts) < 0:
        return None
    days = sorted(counts)
    if unit == "weeks":
        weeks, rest = divmod(days[0], 7)
        return _answer(f"{_plural(weeks, 'week')}" + (f" and {_plural(rest, 'day')}" if rest else "")
                       + (" in a common year" if len(days) > 1 else ""))  # fmt: skip
    return _answer(_plural(days[0], unit.rstrip("s")) + (f", {days[1]} in a leap year" if len(days) > 1 else ""))


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")


def _clock_between(a: str, b: str, unit: str) -> str | None:
    """The hours or minutes from ``a`` to ``b``; ``unit`` "long" says minutes under an hour and hours from one on."""
    clocks = [_CLOCK_ALONE.fullmatch(side) for side in (a, b)]
    if None in clocks or (start := clock_minutes(clocks[0])) is None or (end := clock_minutes(clocks[1])) is None:
        return None
    # "from 9 to 5" and "from 9 am to 5" are 8 hours: a time on a dial is the next one of its two
    dial = any(map(_on_a_dial, clocks)) and not any(clock_style(clock) == "24-hour" for clock in clocks)
    minutes = (end - start) % ((12 if dial else 24) * 60)
    if not dial and _on_a_dial(clocks[1]):  # "If it's 19:30, how many minutes until 8?": the next 8, 20:00
        minutes = min(minutes, (end + 12 * 60 - start) % (24 * 60))
    if unit == "minutes" or (unit == "long" and minutes < 60):
        return _answer(_plural(minutes, "minute"))
    hours, rest = divmod(minutes, 60)
    return _answer(_plural(hours, "hour") + (f" and {_plural(rest, 'minute')}" if rest else ""))
