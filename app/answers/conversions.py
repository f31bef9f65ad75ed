"""The number a unit question asks for, worked out and written into the question for the model.

Asked "How many centimetres are in 2 metres?", the 1.5B says what it has read most often, "There are 100 centimetres
in 1 metre.", and "How many weeks are in 2 years?" gets "52" (a third of such questions, docs/benchmarks.md,
"Conversions"): it knows the factor and does not multiply. As a spelling question gets its word's letters,
``with_conversion_hint`` adds the worked-out figure to the newest user message of a reply's prompt; the conversation
keeps the user's own words. Only units of one kind with a fixed factor are converted (time, length, mass, volume of
the metric system): "How many days are in a month?" has no one answer, and gets no figure. Temperatures have a formula,
which the model read out step by step ("... you can use the formula: Celsius = (Fahrenheit - 32) * 5/9. Plugging in
100, ...") or got wrong ("300 Kelvin is equivalent to 273.15 degrees Celsius."), and get their figure too, as a sum
said aloud gets its answer (``app.answers.arithmetic``).
"""

from __future__ import annotations

import re
from fractions import Fraction

from app.answers.ages import ages_apart
from app.answers.arithmetic import NUMBER_WORDS, NUMBER_WORDS_PATTERN, SHARES, worked_out
from app.answers.counting import counted
from app.answers.days import day_or_time
from app.answers.money import money_counted, price_scaled, share_of_money
from app.answers.phrasebook import phrase_in
from app.answers.records import record_asked
from app.answers.rhymes import rhymes_asked, syllables_asked
from app.answers.roman import roman_asked
from app.answers.sequences import sequence_asked
from app.answers.wording import SHORT_ANSWER, capitalized, plain
from app.answers.world_clock import NOW_ANSWER_START, asks_time_now, places_named, time_in_place
from app.answers.years import years_counted

# each unit's size in its kind's base unit; a name's plural is its name + "s" unless listed
_UNITS: dict[str, dict[str, Fraction]] = {
    "time": {"second": Fraction(1), "minute": Fraction(60), "hour": Fraction(3600), "day": Fraction(86400),
             "week": Fraction(604800), "fortnight": Fraction(1209600), "year": Fraction(365 * 86400)},
    "calendar": {"month": Fraction(1), "year": Fraction(12), "decade": Fraction(120), "century": Fraction(1200),
                 "millennium": Fraction(12000)},
    "length": {"millimetre": Fraction(1, 1000), "centimetre": Fraction(1, 100), "metre": Fraction(1),
               "kilometre": Fraction(1000), "inch": Fraction("0.0254"), "foot": Fraction("0.3048"),
               "yard": Fraction("0.9144"), "mile": Fraction("1609.344")},
    "mass": {"milligram": Fraction(1, 1000), "gram": Fraction(1), "kilogram": Fraction(1000), "tonne": Fraction(10**6),
             "ounce": Fraction("28.349523125"), "pound": Fraction("453.59237"), "stone": Fraction("6350.29318")},
    "volume": {"millilitre": Fraction(1, 1000), "centilitre": Fraction(1, 100), "litre": Fraction(1)},
    # a kitchen's measures, in teaspoons, as the US counts them: "How many tablespoons are in a cup?" -> "8" (every run)
    "kitchen": {"teaspoon": Fraction(1), "tablespoon": Fraction(3), "fluid ounce": Fraction(6), "cup": Fraction(48),
                "pint": Fraction(96), "quart": Fraction(192), "gallon": Fraction(768)},
}  # fmt: skip
_PLURALS = {"century": "centuries", "millennium": "millennia", "inch": "inches", "foot": "feet"}
_OTHER_NAMES = {  # other spellings and short forms, to the name above
    "sec": "second", "secs": "second", "min": "minute", "mins": "minute", "hr": "hour", "hrs": "hour",
    "millimeter": "millimetre", "centimeter": "centimetre", "meter": "metre", "kilometer": "kilometre", "mm": "millimetre",
    "cm": "centimetre", "km": "kilometre", "ft": "foot", "mg": "milligram", "kg": "kilogram", "kilo": "kilogram",
    "ton": "tonne", "oz": "ounce", "lb": "pound", "lbs": "pound", "milliliter": "millilitre", "centiliter": "centilitre",
    "liter": "litre", "ml": "millilitre", "cl": "centilitre", "tsp": "teaspoon", "tbsp": "tablespoon",
    "tbs": "tablespoon", "fl oz": "fluid ounce",
}  # fmt: skip


def _names() -> dict[str, tuple[str, str]]:
    """Every name a unit is asked by, singular or plural, to (its kind, its name)."""
    names: dict[str, tuple[str, str]] = {}
    for kind, units in _UNITS.items():
        for unit in units:
            for name in (unit, _PLURALS.get(unit, unit + "s")):
                names.setdefault(name, (kind, unit))  # "year": the time's, unless the other unit is a month's
    for other, unit in _OTHER_NAMES.items():
        for name in (other, other + "s" if not other.endswith("s") and len(other) > 3 else other):
            names.setdefault(name, next((kind, unit) for kind, units in _UNITS.items() if unit in units))
    return names


_NAMES = _names()
# and an amount of a unit: "a", "half a", "a quarter of an", "three quarters of an" too (the model: 15 minutes)
_NUMBER_WORDS = NUMBER_WORDS | {"a": 1, "an": 1, "half a": Fraction(1, 2), "half an": Fraction(1, 2)}
_NUMBER_WORDS |= {said: SHARES[said] for said in ("a half", "a quarter", "three quarters")}  # "a third year" is no third
_NUMBER_WORDS |= {f"{said} of {article}": SHARES[said] for article in ("a", "an")
                  for said in ("a quarter", "three quarters", "a third", "two thirds")}  # fmt: skip
_UNIT = "|".join(sorted((re.escape(n) for n in _NAMES), key=len, reverse=True))
_QUANTITY = r"\d+(?:,\d{3})*(?:\.\d+)?|" + "|".join(sorted((re.escape(w) for w in _NUMBER_WORDS), key=len, reverse=True))
_AND_A_PART = {said: SHARES[said] for said in ("a half", "a quarter", "three quarters", "a third", "two thirds")}
# an amount, and nothing added to it after: "2 hours and 30 minutes", "2 and a half hours plus 20 minutes", "1 and a half
# hours, three times a week" are no 2 or 1.5 hours
_FROM = (rf"(?P<q>{_QUANTITY})(?: and (?P<q_part>{'|'.join(_AND_A_PART)}))? (?P<from>{_UNIT})"  # "2 and a half years"
         rf"(?: and (?P<part>{'|'.join(_AND_A_PART)}))?"
         r"(?![^?.!]*\b(?:and|plus|minus|times|then|each|every|per|a (?:night|day|week|month|year))\b)(?![^?.!]*\d)")
_ASKS = [
    re.compile(rf"\bhow many (?P<to>{_UNIT}) (?:(?:are|is) )?(?:(?:there )?in (?:a single |one single )?|make up "
               rf"|makes? |equals? |(?:are|is) )(?:there in )?{_FROM}\b", re.I),  # "How many kilos is 10 pounds?"
    re.compile(rf"\b(?:what(?:'s| is)|convert) {_FROM} (?:in|into|to|as) (?P<to>{_UNIT})\b", re.I),
    re.compile(rf"(?:^|\b(?:so|and) ){_FROM} (?:is|are|makes?|equals?) how many (?P<to>{_UNIT})\b", re.I),
]  # fmt: skip


_DEGREES = {"celsius": "degrees Celsius", "centigrade": "degrees Celsius", "c": "degrees Celsius",
            "fahrenheit": "degrees Fahrenheit", "f": "degrees Fahrenheit", "kelvin": "kelvins", "kelvins": "kelvins",
            "k": "kelvins"}  # fmt: skip
_SCALE = r"(?:degrees? |°|º)?(?P<{}>celsius|centigrade|fahrenheit|kelvins?|c|f|k)\b"  # "100°F"; "a C in F major" has no number
_TEMPERATURE_NUMBER = r"(?<![\d,.])\d+(?:\.\d+)?|" + NUMBER_WORDS_PATTERN
_TEMPERATURE = rf"(?P<minus>minus |negative |-)?(?P<t>{_TEMPERATURE_NUMBER}) ?{_SCALE.format('scale')}"
_TEMPERATURE_ASKS = [
    re.compile(rf"\b(?:what(?:'s| is)|convert|how much is) {_TEMPERATURE}(?: be)? (?:in|into|to|as) {_SCALE.format('to')}", re.I),
    re.compile(rf"\bhow many {_SCALE.format('to')} (?:is|are|would be|equals?) {_TEMPERATURE}", re.I),
    re.compile(rf"(?:^|[^\w,.-]){_TEMPERATURE},? what(?:'s| is) (?:that|it) in {_SCALE.format('to')}", re.I),
]

# which of two amounts is more: "Which is heavier, a kilo of feathers or a kilo of bricks?" (the model: the feathers),
# "Is a mile longer than a kilometre?"


def _amount(n: int) -> str:
    return rf"(?P<q{n}>{_QUANTITY}) (?P<u{n}>{_UNIT})(?: of (?P<w{n}>[\w']+(?: (?!or\b)[\w']+){{0,3}}?))?"  # not "... or a kilo"


_MORE = r"(?P<more>heavier|lighter|longer|shorter|bigger|smaller|more|less)"
_COMPARES = [
    re.compile(rf"\b(?:which|what)(?:'s| one)?(?: is| weighs| would be| lasts| holds)? {_MORE}[,:]? (?:is it[,:]? )?"
               rf"{_amount(1)},? or {_amount(2)}\s*[?.!]*$", re.I | re.ASCII),  # "mileſ" folds to no unit
    re.compile(rf"\b(?:is|are|does|do) {_amount(1)} (?:weigh |hold )?{_MORE} than {_amount(2)}\s*[?.!]*$", re.I | re.ASCII),
]
_SAME = {"mass": "weigh the same", "length": "are the same length", "time": "last as long", "volume": "hold the same",
         "kitchen": "hold the same"}  # fmt: skip
_LARGER = ("heavier", "longer", "bigger", "more")
_OPPOSITE = {"heavier": "lighter", "longer": "shorter", "bigger": "smaller", "more": "less"}
_OPPOSITE |= {word: larger for larger, word in _OPPOSITE.items()}


def conversion(text: str) -> str | None:
    """The figure ``text`` asks for, as a sentence with the amount in the user's words ("2 metres = 200 centimetres.",
    "half a kilogram = 500 grams.": given "0.5 kilograms", the model halved the 500 again), else None."""
    text = plain(text)
    for asks in _ASKS:
        found = asks.search(text)
        if found and found["q_part"] and found["part"]:  # "2 and a half hours and a half"
            continue
        if found and (value := _worked_out(found["q"], found["from"], found["to"], found["q_part"] or found["part"])):
            return f"{text[found.start('q'):found.end('part') if found['part'] else found.end('from')]} = {value}."
    for asks in _TEMPERATURE_ASKS:
        if (found := asks.search(text)) and (value := _temperature(found)):
            return f"{text[found.start('minus') if found['minus'] else found.start('t'):found.end('scale')]} = {value}."
    for compares in _COMPARES:
        if found := compares.search(text):
            return _compared(text, found)
    return None


def _compared(text: str, found: re.Match[str]) -> str | None:
    """Which amount is more, as "A kilo of feathers and a kilo of bricks weigh the same, as both are a kilo.", or None
    where the units are of different kinds or the question is not about size ("Which is more fun, ...")."""
    (kind, first), (other_kind, second) = _NAMES[found["u1"].lower()], _NAMES[found["u2"].lower()]
    if kind != other_kind or kind not in _SAME:
        return None
    sizes = [_number(found[f"q{n}"]) * _UNITS[kind][unit] for n, unit in ((1, first), (2, second))]
    said = [text[found.start(f"q{n}"):found.end(f"w{n}") if found[f"w{n}"] else found.end(f"u{n}")] for n in (1, 2)]
    yes_no = found.re is not _COMPARES[0]
    if sizes[0] == sizes[1]:  # "Neither: ... weigh the same." was said "Neither a kilo of feathers nor a kilo of ..."
        same = f"{said[0]} and {said[1]} {_SAME[kind]}, as both are {_amount_said(text, found, 1)}."
        return f"Well, {same}" if yes_no else capitalized(same)
    larger = 0 if sizes[0] > sizes[1] else 1
    amount = _worked_out(found[f"q{larger + 1}"], found[f"u{larger + 1}"], found[f"u{2 - larger}"], None)
    if amount is None:
        return None
    more = found["more"].lower()
    figure = f"{_amount_said(text, found, larger + 1)} = {amount}"
    # asked "Is a pound heavier than a kilogram?", the model said "Yes, a pound is heavier ..." beside "A kilogram is
    # heavier"; beside the question's own amount first it says the fact, after a "Yes" by habit whatever the note begins
    if yes_no:
        first_is = more if (larger == 0) == (more in _LARGER) else _OPPOSITE[more]
        return f"Well, {said[0]} is {first_is} than {said[1]}: {figure}."
    return capitalized(f"{said[larger if more in _LARGER else 1 - larger]} is {more}: {figure}.")


def _amount_said(text: str, found: re.Match[str], n: int) -> str:
    """The amount as the question said it, without what it is of: "a kilo"."""
    return text[found.start(f"q{n}"):found.end(f"u{n}")]


def _temperature(found: re.Match[str]) -> str | None:
    """The temperature in the scale asked for ("about 37.8 degrees Celsius"), or None where it is the same scale."""
    source, target = _DEGREES[found["scale"].lower()], _DEGREES[found["to"].lower()]
    if source == target:
        return None
    said = found["t"]
    amount = (Fraction(said) if said[0].isdigit() else NUMBER_WORDS[said.lower()]) * (-1 if found["minus"] else 1)
    celsius = {"degrees Celsius": amount, "degrees Fahrenheit": (amount - 32) * Fraction(5, 9),
               "kelvins": amount - Fraction("273.15")}[source]  # fmt: skip
    value = {"degrees Celsius": celsius, "degrees Fahrenheit": celsius * Fraction(9, 5) + 32,
             "kelvins": celsius + Fraction("273.15")}[target]  # fmt: skip
    exact = (value * 100).denominator == 1  # to the hundredth, as kelvins are: "26.85"
    figure = f"{float(value):.2f}".rstrip("0").rstrip(".") if exact else f"about {float(value):.1f}"
    return f"{figure.replace('-', 'minus ')} {target}"


def _worked_out(quantity: str, source: str, target: str, part: str | None) -> str | None:
    """The amount in the target unit ("200 centimetres"), or None where there is no fixed factor."""
    source_kind, source_unit = _NAMES[source.lower()]
    target_kind, target_unit = _NAMES[target.lower()]
    if source_kind != target_kind:  # "year" is both: a month's kind where the other is one
        if "year" not in (source_unit, target_unit) or "calendar" not in (source_kind, target_kind):
            return None
        source_kind = target_kind = "calendar"
    if source_unit == target_unit:
        return None
    units = _UNITS[source_kind]
    amount = _number(quantity) + (_AND_A_PART[part.lower()] if part else 0)
    value = amount * units[source_unit] / units[target_unit]
    return f"{_figure(value)} {_unit_name(target_unit, value)}"


def _number(quantity: str) -> Fraction:
    return Fraction(_NUMBER_WORDS[quantity.lower()]) if quantity.lower() in _NUMBER_WORDS else Fraction(quantity.replace(",", ""))


def _figure(value: Fraction) -> str:
    """An exact figure as it is ("200", "0.5"); another as a voice says it: "about 104", "about 1.6"."""
    if value.denominator == 1:
        return str(value.numerator)
    if (value * 1000).denominator == 1:
        return f"{float(value):g}"
    return f"about {round(value)}" if abs(value) >= 20 else f"about {float(value):.2g}"


def _unit_name(unit: str, value: Fraction) -> str:
    return unit if value == 1 else _PLURALS.get(unit, unit + "s")


# a speed from a distance and the time it took: "If I run 10 kilometres in 50 minutes, what's my average speed in
# kilometres per hour?" (the model: "20"), "I drove 150 miles in 2 and a half hours. How fast was I going?"
_TRIP = re.compile(rf"\b(?P<d>{_QUANTITY}) (?P<du>{_UNIT}) in (?P<q>{_QUANTITY})(?P<half> and a half)? (?P<from>{_UNIT})"
                   r"(?P<more_half> and a half)?(?:,? (?:and )?(?P<m>\d{1,2}) (?:minutes?|mins?))?\b", re.I)
_ASKS_SPEED = re.compile(
    r"\b(?:average speed|my speed|the speed|what speed|how fast|how many \w+ (?:per|an|a) hour|mph|km/h|kph)\b"
    r"(?!.*\bhow (?:far|long|many)\b)",  # "..., how far does it go in 3 hours?"
    re.I,
)
_PER_HOUR = re.compile(r"\b(?P<to>kilometres|kilometers|km|miles|metres|meters) (?:per|an|a) hour\b|\b(?P<mph>mph)\b"
                       r"|\b(?P<kmh>km/h|kph)\b", re.I)
# another speed than the trip's, or per second: "What speed should I drive to do it in 2 hours?", "the speed of light"
_NOT_THE_TRIPS = re.compile(r"\b(?:should|would|need to|to do it|twice|times as|as fast|speed of|faster|slower|per (?:second"
                            r"|minute)|/s)\b", re.I)


def _digits(text: str) -> int:
    """How many numbers in digits ``text`` says: a figure that reads some of them must read all ("3 laps of a quarter
    mile in 6 minutes" is no quarter mile in 6 minutes)."""
    return len(re.findall(r"\d+(?:[.,]\d+)*", text))


def speed(text: str) -> str | None:
    """The average speed of a distance covered in a time ``text`` gives and asks the speed of, per hour, as "Worked out:
    the answer is 12 kilometres per hour, for 10 kilometres in 50 minutes." (answer first: given "10 kilometres in 50
    minutes = 12 kilometres per hour." the model worked it out again, at length); else None."""
    trip, asked = _TRIP.search(text), _ASKS_SPEED.search(text)
    if trip is None or asked is None or len(_TRIP.findall(text)) != 1 or _NOT_THE_TRIPS.search(text):
        return None
    if _digits(text) != _digits(trip[0]):
        return None
    distance_kind, distance_unit = _NAMES[trip["du"].lower()]
    time_kind, time_unit = _NAMES[trip["from"].lower()]
    if distance_kind != "length" or time_unit not in ("second", "minute", "hour"):
        return None
    hours = (_number(trip["q"]) + (Fraction(1, 2) if trip["half"] or trip["more_half"] else 0)) * _UNITS["time"][time_unit] / 3600
    hours += Fraction(int(trip["m"]), 60) if trip["m"] else 0
    if not hours:
        return None
    per = _PER_HOUR.search(text)
    target = ("mile" if per["mph"] else "kilometre" if per["kmh"] else _NAMES[per["to"].lower()][1]) if per else distance_unit
    per_hour = _number(trip["d"]) * _UNITS["length"][distance_unit] / _UNITS["length"][target] / hours
    return f"Worked out: the answer is {_figure(per_hour)} {_unit_name(target, per_hour)} per hour, for {trip[0]}. {SHORT_ANSWER}"


# a height in feet and inches, and one in centimetres as feet and inches: "How many inches tall is someone who is 5 foot
# 10?" (the model: 67, 65), "How tall is 180 centimetres in feet and inches?" (5 feet 10)
_FEET_INCHES = re.compile(r"\b(?P<feet>\d{1,2}) (?:foot|feet|ft)(?: and)? (?P<inches>\d{1,2})(?: inch(?:es)?| in\b)?"
                          r"(?=\s*(?:[?.!,](?!\d)|$| in (?:inches|centimetres|centimeters|cm)\b|tall\b))", re.I)
_ASKS_INCHES = re.compile(
    r"\bhow many (?P<to>inches|centimetres|centimeters|cm)\b|\bin (?P<in>inches|centimetres|centimeters|cm)\b", re.I
)
_CM_IN_FEET = re.compile(r"\b(?P<cm>\d{2,3}(?:\.\d)?) ?(?:cm|centimetres|centimeters)\b.*\bin feet(?: and inches)?\b", re.I)


def feet_and_inches(text: str) -> str | None:
    """A height said in feet and inches in inches or centimetres, or one in centimetres in feet and inches, as "5 feet
    10 inches = 70 inches."; else None."""
    if (height := _FEET_INCHES.search(text)) and (asked := _ASKS_INCHES.search(text)):
        if _digits(text) != 2 or int(height["inches"]) > 11:  # "12 feet 6 inches by 9 feet 4 inches", "plus 3 inches"
            return None
        inches = int(height["feet"]) * 12 + int(height["inches"])
        said = (f"{height['feet']} {_unit_name('foot', int(height['feet']))} {height['inches']} "
                f"{_unit_name('inch', int(height['inches']))}")
        if (asked["to"] or asked["in"]).lower() == "inches":
            return f"{said} = {inches} inches."
        return f"{said} = {_figure(inches * Fraction('2.54'))} centimetres."
    if (found := _CM_IN_FEET.search(text)) and _digits(text) == 1:
        feet, inches = divmod(round(Fraction(found["cm"]) / Fraction("2.54")), 12)
        return f"{found['cm']} centimetres = about {feet} {_unit_name('foot', feet)} {inches} inches."
    return None


# fuel for a distance at a rate: "My car uses 8 litres per 100 kilometres. How much fuel for 250 kilometres?", "My car
# does 30 miles per gallon. How many gallons for 300 miles?" (the model worked it out at length, cut before its answer)
_DISTANCE = r"kilometres?|kilometers?|km|miles?"
_FUEL_RATE = re.compile(rf"\b(?P<fuel>\d+(?:\.\d+)?) (?P<fuel_unit>litres?|liters?|gallons?) (?:per|every|for every|each|a|an)"
                        rf" (?:(?P<way>\d+(?:,\d{{3}})?) )?(?P<way_unit>{_DISTANCE})\b", re.I)
_ECONOMY = re.compile(
    rf"\b(?P<way>\d+(?:\.\d+)?) (?P<way_unit>{_DISTANCE}) (?:per|to the|to a|a|an) (?P<fuel_unit>gallon|litre|liter)\b", re.I
)
_FUEL_ASKED = re.compile(
    r"\bhow (?:much|many (?P<fuel_asked>litres|liters|gallons))(?: (?:fuel|petrol|gas|diesel))?"
    r"(?: (?:do|will|would|should) (?:i|we|you) need| is needed| will it (?:use|take|need)| does it (?:use|take|need))?"
    r"(?: for| to (?:drive|go|travel|do)| on)"
    rf"(?: a trip of| a drive of)? (?P<trip>\d+(?:,\d{{3}})?) (?P<trip_unit>{_DISTANCE})\b",
    re.I,
)


# more than one trip at one rate: "each way", "a round trip", "a day for a week", "with a trailer", what it costs
_NOT_ONE_TRIP = re.compile(r"\b(?:each way|round trip|and back|return|a day|a week|per (?:day|week|month)|times|trailer|but|cost"
                           r"|price|dollars?|pounds?|euros?)\b|[$£€%]", re.I)


def fuel_for(text: str) -> str | None:
    """The fuel a trip takes at a rate the message gives, as "Worked out: the answer is 20 litres: 8 litres per 100
    kilometres, for 250 kilometres."; else None."""
    asked = _FUEL_ASKED.search(text)
    rates = [*_FUEL_RATE.finditer(text), *_ECONOMY.finditer(text)]
    if asked is None or len(rates) != 1 or _NOT_ONE_TRIP.search(text):
        return None
    rate = rates[0]
    fuel_unit = _NAMES[rate["fuel_unit"].lower()][1]
    if (asked["fuel_asked"] and _NAMES[asked["fuel_asked"].lower()][1] != fuel_unit) or _digits(text) != _digits(rate[0]) + 1:
        return None  # "How many litres for 300 miles?" at miles per gallon; another number said: "... and 40 on the highway"
    if rate.re is _FUEL_RATE:
        per_way = Fraction(rate["fuel"]) / Fraction((rate["way"] or "1").replace(",", ""))
    else:
        per_way = 1 / Fraction(rate["way"])
    trip = Fraction(asked["trip"].replace(",", "")) * _UNITS["length"][_NAMES[asked["trip_unit"].lower()][1]] / (
        _UNITS["length"][_NAMES[rate["way_unit"].lower()][1]])
    fuel = per_way * trip
    return (f"Worked out: the answer is {_figure(fuel)} {_unit_name(fuel_unit, fuel)}: {rate[0]}, for {asked['trip']} "
            f"{asked['trip_unit']}. {SHORT_ANSWER}")


# a count in dozens: "How many eggs are in three and a half dozen?" (the model: 45)
_DOZENS = re.compile(
    rf"\bhow many (?:\w+ )?(?:are|is) (?:there )?in (?P<q>{_QUANTITY})(?: and (?P<part>{'|'.join(_AND_A_PART)}))? dozen"
    r"[?.!]*$",  # "in a dozen spiders", "in 2 dozen boxes", "in a dozen dozen": another count
    re.I,
)


def dozens(text: str) -> str | None:
    """A count in dozens, as "three and a half dozen = 42."; else None."""
    found = _DOZENS.search(text)
    if found is None:
        return None
    count = (_number(found["q"]) + (_AND_A_PART[found["part"].lower()] if found["part"] else 0)) * 12
    return f"{text[found.start('q'):found.end()].rstrip('?.!')} = {_figure(count)}." if count.denominator == 1 else None


def figure(text: str) -> str | None:
    """The worked-out figure ``text`` asks for: a unit conversion's, a temperature's, which of two amounts is more, a
    speed, the fuel for a trip, a height in feet and inches or a count in dozens, a sum's (``app.answers.arithmetic``),
    the change, money left or money saved in a story of money, a tip, tax, discount or percentage of an amount of money
    or a price from another's (``app.answers.money``), the legs or wheels of some things (``app.answers.counting``), an
    age or years counted from this year (``app.answers.years``), one person's age from another's (``app.answers.ages``),
    a weekday's or clock time's counted from one it gives (``app.answers.days``), the time in another place
    (``app.answers.world_clock``), an everyday phrase's in another language (``app.answers.phrasebook``), words that
    rhyme or a word's syllables (``app.answers.rhymes``), a Roman numeral's (``app.answers.roman``), a sequence to
    say, counted or recited (``app.answers.sequences``) or a world record's holder (``app.answers.records``)."""
    return (conversion(text) or speed(text) or fuel_for(text) or feet_and_inches(text) or dozens(text) or worked_out(text)
            or money_counted(text) or share_of_money(text) or price_scaled(text) or counted(text) or years_counted(text)
            or ages_apart(text) or _counted_time(text) or time_in_place(text) or phrase_in(text) or rhymes_asked(text)
            or syllables_asked(text) or roman_asked(text) or sequence_asked(text) or record_asked(text))  # fmt: skip


def _counted_time(text: str) -> str | None:
    """``app.answers.days``' figure, but for a question naming two places: in which place's time would it count?"""
    said = day_or_time(text)
    return None if said is None or len(places_named(text)) > 1 else said


_HINT = "\n\n({conversion})"
_HINT_START = "\n\n("
_NOW_FIGURE = f"Worked out: {NOW_ANSWER_START}"


def with_conversion_hint(messages: list[dict]) -> list[dict]:
    """``messages`` with the figure added to the last one when it is a user message asking for one (:func:`figure`)."""
    if not messages or messages[-1].get("role") != "user" or not isinstance(messages[-1].get("content"), str):
        return messages
    said = figure(messages[-1]["content"])
    if said is None or messages[-1]["content"].endswith(_HINT.format(conversion=said)):
        return messages
    return [*messages[:-1], {**messages[-1], "content": messages[-1]["content"] + _HINT.format(conversion=said)}]


def without_conversion_hint(content: str) -> str:
    """A user message's content without the figure ``with_conversion_hint`` added."""
    start = content.rfind(_HINT_START)
    if start < 0 or not content.endswith(")"):
        return content
    words = content[:start]
    if _HINT.format(conversion=figure(words) or "") == content[start:]:
        return words
    # a figure read from the clock when the hint was added: the time in a place a minute ago, this year at New Year
    if content[start:].startswith(f"{_HINT_START}{_NOW_FIGURE}") and asks_time_now(words):
        return words
    return words if content[start:].startswith(f"{_HINT_START}Worked out: ") and years_counted(words) else content
