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

from app.answers.wording import plain

# the superlatives asked, each with the record it names
_SAME_RECORD = {"biggest": "largest", "largest": "largest", "tallest": "tallest", "highest": "tallest", "longest": "longest",
                "smallest": "smallest", "tiniest": "smallest", "fastest": "fastest", "quickest": "fastest",
                "deepest": "deepest", "hottest": "hottest", "coldest": "coldest", "brightest": "brightest",
                "closest": "closest", "nearest": "closest", "farthest": "farthest", "furthest": "farthest",
                "heaviest": "heaviest", "most populous": "most people", "most populated": "most people",
                "most people": "most people", "biggest population": "most people",
                "largest population": "most people"}  # fmt: skip
# (record, the thing asked, its holder): each true as said, and none a figure that changes from year to year
RECORDS = (
    ("largest", r"countr(?:y|ies)|nations?", "Russia is the largest country in the world, by area."),
    ("largest", r"oceans?", "The Pacific is the largest ocean."),
    ("largest", r"continents?", "Asia is the largest continent."),
    ("largest", r"deserts?", "Antarctica is the largest desert in the world, as a desert is a place with little rain or "
                             "snow."),
    ("largest", r"lakes?", "The Caspian Sea is the largest lake in the world, and Lake Superior the largest freshwater lake "
                           "by area."),
    ("largest", r"islands?", "Greenland is the largest island in the world."),
    ("largest", r"planets?", "Jupiter is the largest planet in the solar system."),
    ("largest", r"moons?", "Ganymede, a moon of Jupiter, is the largest moon in the solar system."),
    ("largest", r"animals?|mammals?|creatures?|living things?",
     "The blue whale is the largest animal that has ever lived."),
    ("largest", r"land animals?|land mammals?", "The African elephant is the largest land animal."),
    ("largest", r"birds?", "The ostrich is the largest bird."),
    ("largest", r"fish(?:es)?", "The whale shark is the largest fish."),
    ("largest", r"reptiles?", "The saltwater crocodile is the largest reptile."),
    ("largest", r"(?:big |wild )?cats?", "The tiger is the largest wild cat."),
    ("largest", r"organs?", "The skin is the largest organ of the human body."),  # told the liver's too, said the liver
    ("largest", r"bones?", "The femur, the thigh bone, is the largest bone in the human body."),
    ("largest", r"rain ?forests?", "The Amazon is the largest rainforest in the world."),
    ("tallest", r"mountains?|peaks?", "Mount Everest is the tallest mountain in the world, 8,849 metres (29,032 feet) "
                                      "above sea level."),
    ("tallest", r"buildings?|skyscrapers?", "The Burj Khalifa in Dubai is the tallest building in the world, at 828 "
                                            "metres."),
    ("tallest", r"animals?|mammals?", "The giraffe is the tallest animal."),
    ("tallest", r"waterfalls?", "Angel Falls in Venezuela is the tallest waterfall in the world, at 979 metres."),
    ("longest", r"rivers?", "The Nile is usually named the longest river in the world, at about 6,650 kilometres (4,130 "
                            "miles), though some measure the Amazon as longer."),
    ("longest", r"bones?", "The femur, the thigh bone, is the longest bone in the human body."),
    ("smallest", r"countr(?:y|ies)|nations?", "Vatican City is the smallest country in the world."),
    ("smallest", r"oceans?", "The Arctic is the smallest ocean."),
    ("smallest", r"continents?", "Australia is the smallest continent."),
    ("smallest", r"planets?", "Mercury is the smallest planet in the solar system."),
    ("smallest", r"bones?", "The stapes, in the middle ear, is the smallest bone in the human body."),
    ("smallest", r"birds?", "The bee hummingbird of Cuba is the smallest bird."),
    ("fastest", r"animals?|creatures?|birds?", "The peregrine falcon is the fastest animal: it dives at over 300 "
                                               "kilometres (190 miles) an hour."),
    ("fastest", r"land animals?|land mammals?|mammals?", "The cheetah is the fastest land animal, at up to about 110 "
                                                         "kilometres (70 miles) an hour."),
    ("deepest", r"oceans?", "The Pacific is the deepest ocean, and the Mariana Trench in it the deepest place in the sea."),
    ("deepest", r"(?:ocean |sea )?trench(?:es)?|part|point|place|spot",
     "The Mariana Trench in the Pacific is the deepest place in the sea, nearly 11,000 metres (about 36,000 feet) down."),
    ("deepest", r"lakes?", "Lake Baikal in Russia is the deepest lake in the world, about 1,640 metres deep."),
    ("hottest", r"planets?", "Venus is the hottest planet, hotter even than Mercury, which is closer to the Sun."),
    ("coldest", r"continents?", "Antarctica is the coldest continent."),
    ("brightest", r"stars?", "Sirius is the brightest star in the night sky."),
    ("brightest", r"planets?", "Venus is the brightest planet in the night sky."),
    ("closest", r"planets? to the sun", "Mercury is the closest planet to the Sun."),
    ("closest", r"stars?(?: to (?:the )?earth| to us)?", "The Sun is the closest star to the Earth, and the next closest is "
                                                         "Proxima Centauri, about 4.2 light years away."),
    ("farthest", r"planets? from the sun", "Neptune is the farthest planet from the Sun."),
    ("heaviest", r"animals?|mammals?|creatures?", "The blue whale is the heaviest animal that has ever lived."),
    ("most people", r"countr(?:y|ies)|nations?", "India has the most people of any country, having passed China in 2023."),
    ("most people", r"continents?", "Asia has the most people of any continent."),
)
_MOST = "|".join(sorted(_SAME_RECORD, key=len, reverse=True))
# where the record is: the world, or the place a record above is of; elsewhere ("in Africa") the model's
_WHERE = (r"(?: (?:in|on|of) (?:the )?(?:whole )?(?:world|earth|planet|solar system|human body|body|universe|night sky"
          r"|sky|sea|ocean|animal kingdom)| by (?:area|size|land area)| ever| of all(?: time)?| there is| alive| today"
          r"| known)*")
_THING = r"(?P<{}>[a-z][a-z ]{{1,30}}?)"
_START = r"^(?:(?:so|and|ok|okay|hey|hmm|quick question)[,.]? )*"
_RECORD_ASKED = re.compile(
    rf"{_START}(?:(?:what|which)(?:'s| is| was| are)|name|tell me) the (?P<most>{_MOST}) {_THING.format('thing')}{_WHERE}"
    rf"[?.!]*$|{_START}(?:what|which) {_THING.format('thing_is')} (?:is|are) (?:the )?(?P<most_is>{_MOST}){_WHERE}[?.!]*$"
    rf"|{_START}(?:what|which) {_THING.format('thing_has')} has the (?P<most_has>most people|biggest population"
    rf"|largest population){_WHERE}[?.!]*$",
    re.I,
)
def record_asked(question: str) -> str | None:
    """The holder of the world record ``question`` asks for, from the records ('Record book: "Russia is the largest
    country in the world, by area."'), or None."""
    text = plain(question)
    asked = _RECORD_ASKED.search(text) if len(text) <= 120 else None
    if asked is None:
        return None
    most = _SAME_RECORD[(asked["most"] or asked["most_is"] or asked["most_has"]).lower()]
    thing = (asked["thing"] or asked["thing_is"] or asked["thing_has"]).lower()
    holder = next((holder for record, things, holder in RECORDS if record == most and re.fullmatch(things, thing)), None)
    return f'Record book: "{holder}"' if holder else None
