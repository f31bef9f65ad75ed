"""The world's record holders (the largest country, the longest river, the fastest animal), checked beforehand.

Asked "What's the biggest country in the world?", the 1.5B said "China"; "Which country has the most people?" got "The
United States", "What's the largest bird?" "the blue whale" and "What's the largest organ in the human body?" "the
liver" (15 of 34 replies to 17 such questions wrong; docs/benchmarks.md, "record holders"). As a fact asked for is drawn
from facts checked beforehand (``app.answers.facts``), a question for one of these records gets its holder beside it, as
a phrase asked for in another language gets the phrasebook's (``app.answers.phrasebook``). A record somewhere else ("the
largest country in Africa") or of a kind not here stays the model's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.answers.wording import plain

# the superlatives asked, each with the record it names
_SAME_RECORD = {"biggest": "largest", "largest": "largest", "tallest": "tallest", "highest": "tallest", "longest": "longest",
                "smallest": "smallest", "tiniest": "smallest", "fastest": "fastest", "quickest": "fastest",
                "deepest": "deepest", "hottest": "hottest", "coldest": "coldest", "brightest": "brightest",
                "closest": "closest", "nearest": "closest", "farthest": "farthest", "furthest": "farthest",
                "heaviest": "heaviest", "most populous": "most people", "most populated": "most people",
                "most people": "most people", "biggest population": "most people",
                "largest population": "most people"}  # fmt: skip
# where a record holds, as said after its thing ("in the world"): each record names the places it is true of, and a
# question about another ("in Africa", "in the universe", "of all time" for a living animal) gets none
_EARTH = r"(?:in|on) (?:the )?(?:whole )?(?:world|earth|planet)"
_SOLAR = r"(?:in|of) (?:the |our )?solar system"
_BODY = r"(?:in|of) (?:the |your |a )?(?:human )?body"
_SKY = r"in the (?:night )?sky"
_SEA = r"(?:in|of) the (?:sea|ocean)"
_KINGDOM = r"in the animal kingdom"
_EVER = r"ever|that (?:has )?ever lived|of all time"
_ANYWHERE = r"by (?:area|size|land area)|alive|today|right now|there is"
_ANIMALS = f"{_EARTH}|{_KINGDOM}"


@dataclass(frozen=True)
class Record:
    most: str  # the record, as ``_SAME_RECORD`` names it
    things: str  # what holds it, as asked: "countr(?:y|ies)"
    places: str  # where it holds (``_EARTH``, ...)
    holder: str  # said whole: true as said, and no figure that changes from year to year but a dated one
    needs: str | None = None  # a place the question must name ("to the sun")


RECORDS = (
    Record("largest", r"countr(?:y|ies)|nations?", _EARTH, "Russia is the largest country in the world, by area."),
    Record("largest", r"oceans?", _EARTH, "The Pacific is the largest ocean."),
    Record("largest", r"continents?", _EARTH, "Asia is the largest continent."),
    Record("largest", r"deserts?", _EARTH, "Antarctica is the largest desert in the world, as a desert is a place with "
                                           "little rain or snow."),
    Record("largest", r"lakes?", _EARTH, "The Caspian Sea is the largest lake in the world, and Lake Superior the largest "
                                         "freshwater lake by area."),
    Record("largest", r"freshwater lakes?", _EARTH, "Lake Superior is the largest freshwater lake in the world by area."),
    Record("largest", r"islands?", _EARTH, "Greenland is the largest island in the world."),
    Record("largest", r"planets?", _SOLAR, "Jupiter is the largest planet in the solar system."),
    Record("largest", r"moons?", _SOLAR, "Ganymede, a moon of Jupiter, is the largest moon in the solar system."),
    Record("largest", r"animals?|mammals?|creatures?", f"{_ANIMALS}|{_SEA}|{_EVER}",
           "The blue whale is the largest animal known to have ever lived."),
    Record("largest", r"land animals?|land mammals?", _EARTH, "The African elephant is the largest land animal."),
    Record("largest", r"birds?", _EARTH, "The ostrich is the largest bird alive."),
    Record("largest", r"fish(?:es)?", f"{_EARTH}|{_SEA}", "The whale shark is the largest fish alive."),
    Record("largest", r"reptiles?", _EARTH, "The saltwater crocodile is the largest reptile alive."),
    Record("largest", r"(?:big |wild )?cats?", _EARTH, "The tiger is the largest wild cat."),
    Record("largest", r"organs?", _BODY, "The skin is the largest organ of the human body."),  # with the liver: the liver
    Record("largest", r"bones?", _BODY, "The femur, the thigh bone, is the largest bone in the human body."),
    Record("largest", r"rain ?forests?", _EARTH, "The Amazon is the largest rainforest in the world."),
    Record("tallest", r"mountains?|peaks?", _EARTH, "Mount Everest is the highest mountain in the world, 8,849 metres "
                                                    "(29,032 feet) above sea level."),
    Record("tallest", r"buildings?|skyscrapers?", _EARTH, "The Burj Khalifa in Dubai is the tallest building in the world, "
                                                          "at 828 metres."),
    Record("tallest", r"animals?|mammals?", _ANIMALS, "The giraffe is the tallest animal alive."),
    Record("tallest", r"waterfalls?", _EARTH, "Angel Falls in Venezuela is usually named the tallest waterfall in the "
                                              "world, at 979 metres."),
    Record("longest", r"rivers?", _EARTH, "The Nile is usually named the longest river in the world, at about 6,650 "
                                          "kilometres (4,130 miles), though some measure the Amazon as longer."),
    Record("longest", r"bones?", _BODY, "The femur, the thigh bone, is the longest bone in the human body."),
    Record("smallest", r"countr(?:y|ies)|nations?", _EARTH, "Vatican City is the smallest country in the world."),
    Record("smallest", r"oceans?", _EARTH, "The Arctic is the smallest ocean."),
    Record("smallest", r"continents?", _EARTH, "Australia is the smallest continent."),
    Record("smallest", r"planets?", _SOLAR, "Mercury is the smallest planet in the solar system."),
    Record("smallest", r"bones?", _BODY, "The stapes, in the middle ear, is the smallest bone in the human body."),
    Record("smallest", r"birds?", _EARTH, "The bee hummingbird of Cuba is the smallest bird."),
    Record("fastest", r"animals?|creatures?", _ANIMALS, "The peregrine falcon is the fastest animal: it dives at over 300 "
                                                        "kilometres (190 miles) an hour."),
    Record("fastest", r"birds?", _EARTH, "The peregrine falcon is the fastest bird: it dives at over 300 kilometres (190 "
                                         "miles) an hour."),
    Record("fastest", r"land animals?|land mammals?", _EARTH, "The cheetah is the fastest land animal, at up to about 110 "
                                                              "kilometres (70 miles) an hour."),
    Record("deepest", r"oceans?", _EARTH, "The Pacific is the deepest ocean, and the Mariana Trench in it the deepest place "
                                          "in the sea."),
    Record("deepest", r"(?:ocean |sea )?trench(?:es)?|part|point|place|spot", f"{_EARTH}|{_SEA}",
           "The Mariana Trench in the Pacific is the deepest place in the sea, nearly 11,000 metres (about 36,000 feet) "
           "down."),
    Record("deepest", r"lakes?", _EARTH, "Lake Baikal in Russia is the deepest lake in the world, about 1,640 metres deep."),
    Record("hottest", r"planets?", _SOLAR, "Venus is the hottest planet in the solar system, hotter even than Mercury, which "
                                           "is closer to the Sun."),
    Record("coldest", r"continents?", _EARTH, "Antarctica is the coldest continent."),
    Record("brightest", r"stars?", _SKY, "Sirius is the brightest star in the night sky."),
    Record("brightest", r"planets?", _SKY, "Venus is the brightest planet in the night sky."),
    Record("closest", r"planets?", f"{_SOLAR}|to the sun", "Mercury is the closest planet to the Sun.", needs="to the sun"),
    Record("closest", r"stars?", r"to (?:the )?earth|to us", "The Sun is the closest star to the Earth, and the next "
                                                            "closest is Proxima Centauri, about 4.2 light years away."),
    Record("farthest", r"planets?", f"{_SOLAR}|from the sun", "Neptune is the farthest planet from the Sun.",
           needs="from the sun"),
    Record("heaviest", r"animals?|mammals?|creatures?", f"{_ANIMALS}|{_SEA}|{_EVER}",
           "The blue whale is the heaviest animal known to have ever lived."),
    Record("most people", r"countr(?:y|ies)|nations?", _EARTH, "India has the most people of any country, having passed "
                                                               "China in 2023."),
    Record("most people", r"continents?", _EARTH, "Asia has the most people of any continent."),
)
_MOST = "|".join(sorted(_SAME_RECORD, key=len, reverse=True))
# a place said after the thing: one a record holds in, or another, which no record holds in ("in Africa")
_PLACE = (r"of all time|that (?:has )?ever lived|(?:in|on|of) (?:the |our |your |a )?(?:whole )?(?:human )?[a-z]+"
          r"(?: system| sky| kingdom)?|by (?:area|size|land area)|to (?:the )?(?:sun|earth)|to us|from the sun|ever|alive"
          r"|today|right now|there is|known")
_WHERE = rf"(?P<{{}}>(?: (?:{_PLACE}))*)"
_THING = r"(?P<{}>[a-z][a-z ]{{1,30}}?)"
_START = r"^(?:(?:so|and|ok|okay|hey|hmm|quick question)[,.]? )*"
_RECORD_ASKED = re.compile(
    rf"{_START}(?:(?:what|which)(?:'s|s| is| was| are)|name|tell me) the (?P<most>{_MOST}) {_THING.format('thing')}"
    rf"{_WHERE.format('where')}[?.!]*$"
    rf"|{_START}(?:what|which) {_THING.format('thing_is')} (?:is|are) (?:the )?(?P<most_is>{_MOST})"
    rf"{_WHERE.format('where_is')}[?.!]*$"
    rf"|{_START}(?:what|which) {_THING.format('thing_has')} has the (?P<most_has>most people|biggest population"
    rf"|largest population){_WHERE.format('where_has')}[?.!]*$",
    re.I,
)


def _holds(record: Record, thing: str, where: str) -> bool:
    """Whether ``record`` is the one asked: its thing, in places it holds in only, and the one it needs."""
    places = re.findall(_PLACE, where)
    return (re.fullmatch(record.things, thing) is not None
            and all(re.fullmatch(f"{record.places}|{_ANYWHERE}", place) for place in places)
            and (record.needs is None or record.needs in places))  # fmt: skip


def record_asked(question: str) -> str | None:
    """The holder of the world record ``question`` asks for, from the records ('Record book: "Russia is the largest
    country in the world, by area."'), or None."""
    text = plain(question)
    asked = _RECORD_ASKED.search(text) if len(text) <= 120 else None
    if asked is None:
        return None
    most = _SAME_RECORD[(asked["most"] or asked["most_is"] or asked["most_has"]).lower()]
    thing = (asked["thing"] or asked["thing_is"] or asked["thing_has"]).lower()
    where = (asked["where"] or asked["where_is"] or asked["where_has"] or "").lower()
    held = next((record for record in RECORDS if record.most == most and _holds(record, thing, where)), None)
    return f'Record book: "{held.holder}"' if held else None
