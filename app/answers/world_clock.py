"""The time in another city, worked out from the time zone database and written into the question for the model.

Asked "What time is it in Tokyo if it's 3 pm in London?", the 1.5B declines as if asked the time here ("Sorry, I can't
check the time from here."), and "If it's noon in New York, what time is it in Los Angeles?" as the weather; asked the
difference, it guesses (docs/benchmarks.md, "The time in another city"). As a sum gets its answer
(``app.answers.arithmetic``), such a question gets the time it asks for beside it: a clock time in one place said in
another, the hours between two places, and the time in a named place now. That last is the one figure here that reads
the server's clock: the time in Tokyo is the same wherever the server is, while the user's own time is not known to it
(the page's ``get_current_time`` tool tells it), so "What time is it?" is still declined. Summer time is that of today's
date. A place is a city of the time zone database ("Tokyo", "New York"), or a common city, state or country by its main zone
("Beijing", "Mumbai", "San Francisco", "Japan", "Texas"); a country of zones far apart ("Australia", "the US") gets
nothing.
"""

from __future__ import annotations

import datetime
import re
import zoneinfo

from app.answers.days import CLOCK, clock_in_digits, clock_minutes, clock_style, said_clock
from app.answers.wording import capitalized, plain

_LONGEST = 160  # characters: such a question is short, and longer text costs the patterns more
NOW_ANSWER_START = "it is "  # the time in a place now: "it is 9:30 pm on Sunday in Tokyo now"
_AREAS = ("Africa", "America", "Asia", "Atlantic", "Australia", "Europe", "Indian", "Pacific")
# zone names that are no city a person asks about, or are English words: Antarctic stations, Australian states'
# abbreviations, islands named after days
_NOT_PLACES = {
    "ACT", "NSW", "LHI", "North", "South", "West", "East", "Center", "Christmas", "Easter", "Canary", "Casey", "Davis",
    "Mawson", "Palmer", "Rothera", "Troll", "Vostok", "Wake", "Midway", "Johnston", "Truk", "Chuuk", "Yap", "Oral",
    "Nome", "Norfolk", "Mahe", "Queensland", "Victoria", "Tasmania", "Yancowinna", "Currie", "Knox IN", "Enderbury",
    "South Pole", "McMurdo", "Macquarie", "DumontDUrville", "Syowa", "Petersburg", "Marengo", "Vevay", "Winamac",
    "Tell City", "Monticello", "Beulah", "New Salem", "Salta", "Ensenada", "Santa Isabel", "Shiprock", "Atka", "Creston",
    "Reunion", "Chatham", "Cordoba", "South Georgia", "Halifax",  # "the reunion", or a town of another country's
}  # fmt: skip
_OTHER_NAMES = {
    "Asia/Shanghai": ("Beijing", "Shenzhen", "Guangzhou", "China"),
    "Asia/Kolkata": ("Mumbai", "Bombay", "Delhi", "New Delhi", "Bangalore", "Bengaluru", "Chennai", "Hyderabad", "India"),
    "Asia/Tokyo": ("Osaka", "Kyoto", "Japan"),
    "Asia/Seoul": ("Korea", "South Korea"),
    "America/Los_Angeles": ("San Francisco", "Seattle", "Las Vegas", "San Diego", "Hollywood", "California", "LA"),
    "America/New_York": ("Boston", "Washington DC", "Washington, DC", "Miami", "Atlanta", "Philadelphia", "Orlando",
                         "Florida", "NYC", "New York City"),
    "America/Chicago": ("Houston", "Dallas", "Austin", "New Orleans", "Texas"),
    "America/Denver": ("Salt Lake City", "Colorado"),
    "America/Sao_Paulo": ("São Paulo", "Rio", "Rio de Janeiro"),
    "America/Mexico_City": ("Guadalajara",),
    "America/Argentina/Buenos_Aires": ("Argentina",),
    "America/Toronto": ("Ottawa",),
    "Pacific/Honolulu": ("Hawaii",),
    "America/Anchorage": ("Alaska",),
    "Europe/London": ("Manchester", "Edinburgh", "Liverpool", "Glasgow", "the UK", "UK", "England", "Britain",
                      "Great Britain", "Scotland", "Wales"),
    "Europe/Dublin": ("Ireland",),
    "Europe/Paris": ("France", "Lyon", "Marseille"),
    "Europe/Berlin": ("Germany", "Munich", "Frankfurt", "Hamburg", "Cologne"),
    "Europe/Rome": ("Italy", "Milan", "Venice", "Florence", "Naples"),
    "Europe/Madrid": ("Spain", "Barcelona", "Seville", "Valencia"),
    "Europe/Lisbon": ("Portugal", "Porto"),
    "Europe/Amsterdam": ("the Netherlands", "Netherlands", "Holland"),
    "Europe/Brussels": ("Belgium",),
    "Europe/Zurich": ("Switzerland", "Geneva", "Zürich"),
    "Europe/Vienna": ("Austria",),
    "Europe/Warsaw": ("Poland",),
    "Europe/Stockholm": ("Sweden",),
    "Europe/Oslo": ("Norway",),
    "Europe/Copenhagen": ("Denmark",),
    "Europe/Helsinki": ("Finland",),
    "Europe/Athens": ("Greece",),
    "Europe/Istanbul": ("Turkey", "Ankara"),
    "Europe/Kyiv": ("Ukraine", "Kiev"),
    "Europe/Moscow": ("Saint Petersburg", "St. Petersburg", "St Petersburg"),
    "Africa/Cairo": ("Egypt",),
    "Africa/Lagos": ("Nigeria",),
    "Africa/Nairobi": ("Kenya",),
    "Africa/Johannesburg": ("South Africa", "Cape Town"),
    "Asia/Jerusalem": ("Israel", "Tel Aviv"),
    "Asia/Dubai": ("Abu Dhabi", "the UAE", "the United Arab Emirates"),
    "Asia/Riyadh": ("Saudi Arabia", "Mecca"),
    "Asia/Tehran": ("Iran",),
    "Asia/Karachi": ("Pakistan", "Lahore", "Islamabad"),
    "Asia/Dhaka": ("Bangladesh",),
    "Asia/Kathmandu": ("Nepal",),
    "Asia/Bangkok": ("Thailand", "Hanoi", "Vietnam"),
    "Asia/Manila": ("the Philippines", "Philippines"),
    "Asia/Singapore": ("Singapore",),
    "Asia/Hong_Kong": ("Hong Kong",),
    "Asia/Taipei": ("Taiwan",),
    "Pacific/Auckland": ("New Zealand", "Wellington"),
    "Atlantic/Reykjavik": ("Iceland",),
    "America/Lima": ("Peru",),
    "America/Bogota": ("Colombia",),
}  # fmt: skip


def _place_zones() -> dict[str, str]:
    """Every place name, lower-cased, and its zone."""
    places = {}
    for key in zoneinfo.available_timezones():
        area, _, city = key.partition("/")
        name = city.replace("_", " ")
        if area in _AREAS and "/" not in city and name not in _NOT_PLACES:
            places[name.lower()] = key
    for key, names in _OTHER_NAMES.items():
        places.update((name.lower(), key) for name in names)
    return places


_PLACES = _place_zones()  # built at import (~0.1 s with the patterns), not in the first reply's prompt building


def _compiled() -> dict[str, re.Pattern[str]]:
    place = "|".join(re.escape(name) for name in sorted(_PLACES, key=len, reverse=True))
    at = rf"(?:(?:in|at) (?:the )?(?P<{{0}}>{place})\b|(?P<{{0}}_time>{place}) time\b)"
    flags = re.I | re.ASCII  # "İstanbul" folds to no key
    return {
        # "if it's 3 pm in London", "when it is 9:30 am in Paris", "what time is 3 pm London time in Tokyo"
        "from": re.compile(rf"(?:\bit(?:'s| is| was) (?:now )?)?\b(?:{CLOCK}) (?:(?:here )?{at.format('from')})", flags),
        "to": re.compile(at.format("to"), flags),
        "asks": re.compile(r"\bwhat(?:'s| is)? (?:the )?time\b|\bwhat (?:time|hour)\b", flags),
        # "What time is it in Tokyo?", "What's the time in London right now?": no other time or place in the question
        "now": re.compile(
            rf"\b(?:what(?:'s the (?:current )?time| is the (?:current )?time| time is it)|(?:do you )?know what time it is)"
            rf" (?:(?:right )?now )?{at.format('to')}(?:,? (?:(?:right )?now|please|today|at the moment))?\s*[?.!]*$",
            flags,
        ),
        "between": re.compile(
            rf"\btime difference between (?:the )?(?P<a>{place}) and (?:the )?(?P<b>{place})\b"
            rf"|\bhow many hours (?:ahead|behind) (?:is|of) (?:the )?(?P<c>{place}) (?:from|of|than) (?:the )?(?P<d>{place})\b",
            flags,
        ),
        "place": re.compile(rf"\b(?:{place})\b", flags),
    }


_PATTERNS = _compiled()


def time_in_place(text: str, now: datetime.datetime | None = None) -> str | None:
    """The time ``text`` asks for in a place, as "Worked out: when it is 3 pm in London, it is 11 pm in Tokyo.";
    else None. ``now`` (the server's clock when None) sets the date whose summer time counts."""
    if len(text) > _LONGEST:
        return None
    text = clock_in_digits(plain(text))
    now = now or datetime.datetime.now(datetime.UTC)
    answer = _said_elsewhere(text, now) or _difference(text, now) or _now_in(text, now)
    return f"Worked out: {answer}." if answer else None


def _zone(name: str) -> zoneinfo.ZoneInfo:
    return zoneinfo.ZoneInfo(_PLACES[name.lower()])


def _place(found: re.Match[str], group: str) -> str:
    return found[group] or found[f"{group}_time"]


def _said_elsewhere(text: str, now: datetime.datetime) -> str | None:
    sources = list(_PATTERNS["from"].finditer(text))
    if (len(sources) != 1 or not _PATTERNS["asks"].search(text) or re.search(r"\b(?:hours?|minutes?|later)\b", text, re.I)
            or (minutes := clock_minutes(sources[0])) is None or clock_style(sources[0]) == "dial"):  # fmt: skip
        return None  # "... in Tokyo in 3 hours", counted from one time; "If it's 10 in Tokyo": am or pm unknown
    source = sources[0]
    targets = [found for found in _PATTERNS["to"].finditer(text) if not source.start() <= found.start() < source.end()]
    if len(targets) != 1:
        return None
    here, there = _place(source, "from"), _place(targets[0], "to")
    start_zone, end_zone = _zone(here), _zone(there)
    day = now.astimezone(start_zone).date()
    start = datetime.datetime.combine(day, datetime.time(*divmod(minutes, 60)), tzinfo=start_zone)
    end = start.astimezone(end_zone)
    days = (end.date() - day).days
    when = {1: " the next day", -1: " the day before", 2: " two days later", -2: " two days earlier"}.get(days, "")
    style = clock_style(source)
    return (f"when it is {said_clock(minutes, style)} in {_said(here)}, "
            f"it is {said_clock(end.hour * 60 + end.minute, style)}{when} in {_said(there)}")  # fmt: skip


def _difference(text: str, now: datetime.datetime) -> str | None:
    found = _PATTERNS["between"].search(text)
    if found is None:
        return None
    first, second = (found["a"], found["b"]) if found["a"] else (found["c"], found["d"])
    hours = (_offset(_zone(first), now) - _offset(_zone(second), now)) / 3600
    first, second = _said(first), _said(second)
    if hours == 0:
        return f"{first} and {second} have the same time"
    whole, part = divmod(abs(hours), 1)
    parts = {0.25: "a quarter", 0.5: "a half", 0.75: "three quarters"}
    if not whole:
        said = f"{parts[part]} of an hour" if part != 0.5 else "half an hour"
    else:
        said = f"{int(whole)}{f' and {parts[part]}' if part else ''} hour{'s' if abs(hours) > 1 else ''}"
    return f"{capitalized(first)} is {said} {'ahead of' if hours > 0 else 'behind'} {second}"


def _said(place: str) -> str:
    """A place as said in a sentence: "the UK", "the Philippines", where its name takes "the"."""
    return f"the {place}" if f"the {place.lower()}" in _PLACES else place


def _offset(zone: zoneinfo.ZoneInfo, now: datetime.datetime) -> float:
    offset = now.astimezone(zone).utcoffset()
    return offset.total_seconds() if offset is not None else 0.0


def places_named(text: str) -> set[str]:
    """The places ``text`` names, lower-cased: a time counted in a question naming two ("If my flight leaves London at 9
    am and takes 12 hours, what time is it in Tokyo when I land?") is neither's to count from."""
    return {name.lower() for name in _PATTERNS["place"].findall(text[:_LONGEST * 2])}


def asks_time_now(text: str) -> bool:
    """Whether ``text`` asks the time in a place now, which :func:`time_in_place` answers from the server's clock: a
    question that names one place and no other time (not "I'm in London and it's 3 pm. What time is it in Tokyo?")."""
    text = clock_in_digits(plain(text))
    return len(text) <= _LONGEST and _asked_now(text) is not None


def _asked_now(text: str) -> re.Match[str] | None:
    """The "now" pattern's match where ``text`` (plain) names one place and no other time, else None."""
    found = _PATTERNS["now"].search(text)  # first: it fails fast where the others scan every place name
    if found is None or len(_PATTERNS["to"].findall(text)) != 1 or re.search(r"\d|\bnoon\b|\bmidnight\b", text, re.I):
        return None
    return found


def _now_in(text: str, now: datetime.datetime) -> str | None:
    found = _asked_now(text)
    if found is None:
        return None
    there = _place(found, "to")
    local = now.astimezone(_zone(there))
    return f"{NOW_ANSWER_START}{said_clock(local.hour * 60 + local.minute, 'am-pm')} on {local:%A} in {_said(there)} now"
