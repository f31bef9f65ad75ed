"""Legs, wheels and sides counted for a number of things, worked out and written into the question for the model.

The 1.5B knows that a cat has four legs and does not multiply: "How many legs do three cats have?" -> "Three cats have
three legs.", "How many wheels do four bicycles have?" -> "Four bicycles have four wheels." (docs/benchmarks.md, "The
time in another city, legs and wheels"). As a sum gets its answer (``app.answers.arithmetic``), a question that counts
one of these parts on some things of the kinds listed here gets the count beside it: "the answer is 12 legs: 3 cats
have 4 legs each.". A thing not listed ("How many legs do three octopuses have?") gets nothing, and so does a question
that names one among listed ones, as its total would be wrong. And the pets, children or siblings the user listed,
added up when they ask how many they have.
"""

from __future__ import annotations

import re

from app.answers.days import count_of
from app.answers.wording import plain

_LONGEST = 160  # characters: such a question is short, and longer text costs the patterns more
# each part, and how many of it a thing has; a thing's plural is its name + "s" unless listed
_PARTS: dict[str, dict[str, int]] = {
    "legs": {
        "cat": 4, "dog": 4, "horse": 4, "cow": 4, "pig": 4, "sheep": 4, "goat": 4, "lion": 4, "tiger": 4,
        "elephant": 4, "giraffe": 4, "zebra": 4, "rabbit": 4, "mouse": 4, "bear": 4, "fox": 4, "deer": 4,
        "frog": 4, "lamb": 4, "puppy": 4, "kitten": 4, "donkey": 4, "camel": 4, "hamster": 4,
        "chicken": 2, "duck": 2, "bird": 2, "goose": 2, "ostrich": 2, "penguin": 2, "owl": 2, "parrot": 2, "hen": 2,
        "person": 2, "man": 2, "woman": 2, "child": 2, "kid": 2, "boy": 2, "girl": 2, "human": 2, "farmer": 2,
        "spider": 8, "insect": 6, "ant": 6, "bee": 6, "fly": 6, "beetle": 6, "butterfly": 6, "ladybug": 6,
        "grasshopper": 6, "crab": 10, "snake": 0, "fish": 0,
        "table": 4, "chair": 4, "stool": 3, "tripod": 3,
    },
    "wheels": {
        "bicycle": 2, "bike": 2, "motorcycle": 2, "motorbike": 2, "scooter": 2, "tricycle": 3, "trike": 3,
        "unicycle": 1, "car": 4, "wagon": 4, "skateboard": 4, "wheelbarrow": 1,
    },
    "sides": {
        "triangle": 3, "square": 4, "rectangle": 4, "pentagon": 5, "hexagon": 6, "heptagon": 7, "octagon": 8,
        "nonagon": 9, "decagon": 10,
    },
}  # fmt: skip
_PART_NAMES = {"legs": "legs", "feet": "legs", "paws": "legs", "wheels": "wheels", "sides": "sides", "corners": "sides"}
_PLURALS = {"sheep": "sheep", "mouse": "mice", "fox": "foxes", "deer": "deer", "puppy": "puppies", "goose": "geese",
            "person": "people", "man": "men", "woman": "women", "child": "children", "fly": "flies",
            "butterfly": "butterflies", "fish": "fish", "pony": "ponies", "bunny": "bunnies", "goldfish": "goldfish",
            "canary": "canaries"}  # fmt: skip
_SINGULARS = {plural: thing for thing, plural in _PLURALS.items()}
_THINGS = {thing for things in _PARTS.values() for thing in things}
_NOT_FEET = {"table", "chair", "stool", "tripod"}  # a chair's legs are no feet
_PAWED = {"cat", "dog", "lion", "tiger", "bear", "fox", "rabbit", "mouse", "puppy", "kitten", "hamster"}

_COUNT = r"\d{1,4}|(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)[ -][a-z]+|[a-z]+"


def _names(things: set[str]) -> str:
    """``things`` and their plurals, longest first, as a pattern's alternatives."""
    return "|".join(sorted({name for thing in things for name in (thing, _PLURALS.get(thing, thing + "s"))}, key=len,
                           reverse=True))  # fmt: skip


def _group(names: str) -> str:
    """One count of one of ``names`` ("three cats"), its parts named."""
    return rf"(?P<count>{_COUNT}) (?P<thing>{names})\b"


def _listed(names: str) -> str:
    """Counts of ``names`` in a list ("three cats, a dog and two rabbits")."""
    return rf"(?:{_COUNT}) (?:{names})(?:(?:,| and|, and) (?:{_COUNT}) (?:{names}))*"


_THING = _names(_THINGS)
_GROUPS = _listed(_THING)
_ASKS = re.compile(
    rf"\bhow many (?P<part>{'|'.join(_PART_NAMES)}) (?:(?:do|does|would|will) (?P<things>{_GROUPS}) "
    rf"(?:have|has)\b|(?:are (?:there )?)?(?:on|in) (?P<among>{_GROUPS})\b)"
    # "A farmer has 5 cows and 3 ducks. How many legs are there?", not "... How many legs does a cat have?"
    rf"|(?:\b(?:have|has|there are|there's|sees?|saw|got) |^(?:(?:so|ok|okay|and|if i have|i have) )?)(?P<before>{_GROUPS})"
    rf"[.,;]? how many (?P<part_after>"
    rf"{'|'.join(_PART_NAMES)})(?: (?:are there|do they have|are there in total|do they have in total|in total|altogether"
    r"|in all))?\s*[?.!]*$",
    re.I | re.ASCII,  # "ſides" folds to no part's name
)
_ONE_GROUP = re.compile(_group(_THING), re.I | re.ASCII)


def counted(text: str) -> str | None:
    """The count ``text`` asks for, as "Worked out: the answer is 12 legs: 3 cats have 4 legs each."; else None."""
    if len(text) > _LONGEST:
        return None
    found = _ASKS.search(plain(text))
    if found is None:
        return None
    asked = (found["part"] or found["part_after"]).lower()
    part = _PART_NAMES[asked]
    said, total = [], 0
    for group in _ONE_GROUP.finditer(found["things"] or found["among"] or found["before"]):
        count, thing = count_of(group["count"]), _singular(group["thing"].lower(), _THINGS)
        each = _PARTS[part].get(thing)
        if not count or each is None or (asked == "feet" and thing in _NOT_FEET) or (asked == "paws" and thing not in _PAWED):
            return None
        total += count * each
        said.append(f"{group['count'].lower()} {group['thing']} {'has' if count == 1 else 'have'} {each} {_part(asked, each)}"
                    f"{' each' if count > 1 else ''}")
    if not said or (len(said) == 1 and total == each):
        return None  # one thing, as the model knows it ("How many legs does a spider have?")
    # the total first: after "three cats have 4 legs each: 12 legs." the model said "Three cats have 4 legs each."
    return f"Worked out: the answer is {total} {_part(asked, total)}{' in all' if len(said) > 1 else ''}: {', and '.join(said)}."


def _singular(thing: str, known: set[str]) -> str:
    """The singular of a name a pattern of ``known`` things found."""
    if thing in _SINGULARS:
        return _SINGULARS[thing]
    return thing[:-1] if thing.endswith("s") and thing[:-1] in known else thing


def _part(part: str, count: int) -> str:
    return part if count != 1 else {"feet": "foot"}.get(part, part.removesuffix("s"))


# What the user has, counted by a kind that holds them: "How many pets do I have?" after "I have three cats and two
# dogs." -> "You have three cats and two dogs." (docs/benchmarks.md, "Lasting facts"): the model recalls the list and
# does not add it up. A list of things of one kind, said as the user's own ("I have", "we've got"), gets its total
# when asked; a list with something not listed ("three cats and a hamster" counts; "two cats and a husband" does
# not), two such lists, or one that gives the total itself ("two kids, a boy and a girl") get nothing.
_OWNED_KINDS: dict[str, set[str]] = {
    "pets": {"cat", "dog", "horse", "pony", "rabbit", "bunny", "hamster", "guinea pig", "gerbil", "mouse", "rat",
             "ferret", "fish", "goldfish", "bird", "parrot", "budgie", "canary", "chicken", "hen", "duck", "goat",
             "pig", "cow", "sheep", "lamb", "donkey", "turtle", "tortoise", "snake", "lizard", "gecko", "frog",
             "puppy", "kitten"},
    "children": {"son", "daughter", "boy", "girl"},
    "siblings": {"brother", "sister"},
}  # fmt: skip
_KIND_NAMES = {"pets": "pets", "animals": "pets", "children": "children", "kids": "children", "siblings": "siblings",
               "brothers and sisters": "siblings"}  # fmt: skip
_OWNED_THINGS = {thing for things in _OWNED_KINDS.values() for thing in things}
_OWNED = _names(_OWNED_THINGS)
OWNED_ASKED = re.compile(
    rf"\bhow many (?P<kind>{'|'.join(_KIND_NAMES)}) (?:do|have) (?:i|we) (?:have|got|own)\b"
    r"(?: (?:now|in total|altogether|in all))?\s*[?.!]*$",
    re.I,
)
_HAVE = re.compile(
    rf"\b(?:i|we)(?: have| have got|'ve got|'ve| own| also have| have also got) (?P<list>{_listed(_OWNED)})"
    r"(?: at home| too| as well)?(?=\s*(?:[.!;?]|$|, (?!and\b)))",
    re.I | re.ASCII,
)
_OWNED_ONE = re.compile(_group(_OWNED), re.I | re.ASCII)
_KIND_COUNTED = re.compile(rf"\b(?P<count>{_COUNT}) (?:{'|'.join(_KIND_NAMES)})\b", re.I)  # "two kids, a boy and a girl"


def owned_counted(question: str, earlier: list[str]) -> str | None:
    """For a question how many pets, children or siblings the user has (``OWNED_ASKED``), the total of the list they
    gave of that kind, in ``earlier`` (their messages, oldest first) or before the question, as "Worked out: the
    answer is 5 pets: three cats and two dogs."; else None."""
    asked = OWNED_ASKED.search(plain(question))
    if asked is None:
        return None
    kind = _KIND_NAMES[asked["kind"].lower()]
    texts = [*map(plain, earlier), plain(question)[: asked.start()]]
    lists = [found["list"] for text in texts for found in _HAVE.finditer(text) if _of_kind(found["list"], kind)]
    if len(lists) != 1 or any(count_of(said["count"]) for text in texts for said in _KIND_COUNTED.finditer(text)):
        return None
    said, total = [], 0
    for group in _OWNED_ONE.finditer(lists[0]):
        count, thing = count_of(group["count"]), _singular(group["thing"].lower(), _OWNED_THINGS)
        if not count or thing not in _OWNED_KINDS[kind]:
            return None
        total += count
        said.append(f"{group['count'].lower()} {group['thing']}")
    if len(said) < 2:
        return None  # one kind of thing: its count is the answer as said
    return f"Worked out: the answer is {total} {asked['kind'].lower()}: {', '.join(said[:-1])} and {said[-1]}."


def _of_kind(listed: str, kind: str) -> bool:
    return any(_singular(group["thing"].lower(), _OWNED_THINGS) in _OWNED_KINDS[kind]
               for group in _OWNED_ONE.finditer(listed))
