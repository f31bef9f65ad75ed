"""A fun fact asked for on no subject, drawn from facts checked beforehand.

Asked "Tell me something interesting." or "Surprise me.", the 1.5B declined ("I'm sorry, but I can't surprise you.");
told to tell one true, surprising fact, it made figures up ("there are over 100,000 species of birds in the world",
"over 1.5 million species of plants") or told the same one every time ("the tallest mountain in the world is Mount
Everest"; docs/benchmarks.md, "Asked for help, a fun fact"). As the server draws a coin for "Flip a coin.", it draws
a fact for such a request, one not said yet in the conversation, and the answer to say is it; "Another one." after
one draws the next. A fact on a subject some are about ("Tell me a fun fact about space.", where the model said "The
most famous planet in our solar system is Earth.") is drawn from those; on another subject ("about Paris") it is the
model's to tell.
"""

from __future__ import annotations

import random
import re

from app.answers.wording import REQUEST_END, REQUEST_START, draw_unsaid

# each one true as said, none a figure that changes from year to year
FACTS = (
    "Octopuses have three hearts and blue blood.",
    "Venus spins so slowly that one turn on its axis takes longer than one trip round the Sun.",
    "Bananas are berries, botanically speaking, but strawberries are not.",
    "Sharks are older than trees. They were swimming in the sea millions of years before the first trees grew.",
    "Wombats make cube-shaped droppings.",
    "A group of flamingos is called a flamboyance.",
    "A bolt of lightning is about five times hotter than the surface of the Sun.",
    "The shortest war on record, between Britain and Zanzibar in 1896, lasted less than an hour.",
    "Butterflies taste with their feet.",
    "Scotland's national animal is the unicorn.",
    "Oxford University was already teaching students before the Aztec city of Tenochtitlan was founded.",
    "Cleopatra lived closer in time to the Moon landing than to the building of the Great Pyramid.",
    "Polar bears have black skin under their white fur.",
    "An ostrich's eye is bigger than its brain.",
    "The Moon drifts about four centimetres further away from the Earth every year.",
    "Sunlight takes about eight minutes to reach the Earth.",
    "Hummingbirds can hover in one place, and even fly backwards.",
    "The Great Pyramid of Giza was the tallest building in the world for nearly four thousand years.",
    "Crocodiles can't stick their tongues out.",
    "Some turtles can breathe through their bottoms.",
    "Antarctica is the largest desert in the world, since a desert is a place with very little rain or snow.",
    "There are more trees on Earth than stars in our galaxy.",
    "The dot over a lowercase i or j is called a tittle.",
    "From an aeroplane, a rainbow can be seen as a full circle.",
    "Cats can't taste sweet things.",
    "Octopuses can taste with their arms.",
    "Peanuts aren't nuts. They're legumes, like peas and beans.",
    "A fluffy white cloud can weigh as much as a hundred elephants.",
    "Honeybees tell each other where to find flowers by dancing.",
    "Saturn is, on average, less dense than water.",
    "Dolphins sleep with one half of their brain at a time.",
    "Jupiter has the shortest day of all the planets, under ten hours.",
    "A strawberry carries about two hundred seeds on its outside.",
    "The Eiffel Tower can grow up to about fifteen centimetres taller in summer, as its iron expands in the heat.",
    "A snail has thousands of tiny teeth on its tongue.",
    "Venus is the hottest planet, hotter even than Mercury, which is closer to the Sun.",
    "The Pacific Ocean is larger than all of the Earth's land put together.",
    "A baby kangaroo is called a joey, and at birth it is about the size of a jelly bean.",
    "Starfish have no brain and no blood.",
    "The fingernails on your hands grow faster than your toenails.",
    "Glass frogs have skin so clear on their bellies that you can see their hearts beating.",
)
# the facts on a subject a request may name: those with one of its words
_ABOUT = {
    "space": r"Moon(?! landing)|Sun|Sunlight|planets?|Venus|Jupiter|Saturn|galaxy|stars",
    "the sea": r"Pacific Ocean|Octopuses|Sharks|the sea|Dolphins|Starfish|turtles",
    "animals": r"Octopuses|Wombats|flamingos|Butterflies|Polar bears|ostrich's|Hummingbirds|Crocodiles|turtles|Cats"
               r"|Honeybees|Dolphins|snail|kangaroo|Starfish|frogs|Sharks",
    "history": r"war|Oxford|Cleopatra|Great Pyramid",
    "food": r"Bananas|Peanuts|strawberry",
    "the weather": r"lightning|rainbow|cloud",
}
_SUBJECTS = {"space": "space", "outer space": "space", "the planets": "space", "planets": "space", "the solar system": "space",
             "the universe": "space", "astronomy": "space", "the moon": "space", "the sun": "space", "the sea": "the sea",
             "the ocean": "the sea", "oceans": "the sea", "the oceans": "the sea", "sea animals": "the sea",
             "sea creatures": "the sea", "animals": "animals", "nature": "animals", "history": "history",
             "food": "food", "the weather": "the weather", "weather": "the weather"}  # fmt: skip
_FACTS_ON = {subject: tuple(fact for fact in FACTS if re.search(rf"\b(?:{words})\b", fact)) for subject, words in _ABOUT.items()}
_ON = r"(?: (?:about|on) (?P<about>[\w' ]{2,25}?))?"
_FACT_ASKED = re.compile(
    rf"{REQUEST_START}(?:(?:tell|give|teach|show) (?:me|us) (?:(?:something|anything) (?:interesting|new|random|cool|amazing"
    r"|surprising|fun|weird|(?:i|we) (?:don't|dont|didn't|didnt) know)|(?:an? |another |one more |some )?(?:(?:fun|random"
    rf"|interesting|cool|amazing|surprising|weird|crazy) )?facts?{_ON})|say something (?:interesting|surprising|cool|random)"
    rf"|teach (?:me|us) something(?: new)?|surprise (?:me|us)|(?:another|one more|an?) (?:fun |random )?fact"
    rf"|(?:fun|random) fact){REQUEST_END}|^(?:do|did) you know any (?:fun |good |interesting |cool |random )?facts\?*$",
    re.I,
)
# after a fact, the next
_ANOTHER = re.compile(r"^(?:(?:ok|okay|and|so|wow|cool|nice|great|oh)[,.!]* )*(?:(?:tell|give) (?:me|us) )?(?:another"
                      r"|one more)(?: one)?(?:,? please)?[.!?]*$", re.I)  # fmt: skip
FACT_REQUEST = re.compile(f"{_FACT_ASKED.pattern}|{_ANOTHER.pattern}", re.I)


def fact_to_say(question: str, replies: list[str], draws: random.Random) -> str | None:
    """For a request for a fact on no subject, one of ``FACTS`` not in the conversation's ``replies`` (``draw_unsaid``),
    and on a subject some are about one of those not said yet; "Another one." only where the last reply told one (word
    for word, as the model says it), and "Surprise me." not as the answer to the last reply's question ("Dragons or
    pirates?")."""
    last = replies[-1] if replies else ""
    if _ANOTHER.search(question):
        if not any(_said(fact, last) for fact in FACTS):
            return None
    elif not (asked := _FACT_ASKED.search(question)) or (re.search(r"\bsurprise\b", question, re.I)
                                                        and last.rstrip().endswith("?")):  # fmt: skip
        return None
    elif asked["about"]:
        on_it = _FACTS_ON.get(_SUBJECTS.get(asked["about"].lower(), ""), ())
        unsaid = [fact for fact in on_it if not any(_said(fact, reply) for reply in replies)]
        return draws.choice(unsaid) if unsaid else None  # a subject none is about, or all said: the model's to tell
    return draw_unsaid(draws, FACTS, _said, replies)


def _said(fact: str, reply: str) -> bool:
    """Whether ``reply`` told ``fact``: its first words, as a reply may end it in words of its own."""
    return fact[:30].lower() in reply.lower()
