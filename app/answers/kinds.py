"""What kind of thing an animal, a food or a body in the sky is, checked beforehand, as the answer to a question.

Asked "Is a spider an insect?", the 1.5B said "Well, spiders are indeed insects." (2 of 2, with the yes-or-no
question's first words), "Is a whale a fish?" -> "Well, a whale is a fish." once, "Is a peanut a nut?" -> "Well, a
peanut is indeed a nut." (docs/benchmarks.md, "What kind of thing"). Given what it is beside the question, as a
record's holder is (``app.answers.records``), it began "Yes," to all of them ("Yes, a spider is an arachnid, not an
insect."), since the first words of a yes-or-no question are not given beside a figure. So, as a fact asked for is
drawn from facts checked beforehand (``app.answers.facts``), a question whether one of these things is of a kind ("Is
a whale a fish?", "Are bats birds?") gets the answer to say, "Yes" or "No" first, and why; one whether it is of one kind
or another ("Is a tomato a fruit or a vegetable?") or what kind it is ("What kind of animal is a koala?") what it is. A
question about another kind of thing ("Is a spider dangerous?") gets none.
"""

from __future__ import annotations

import re

from app.answers.wording import plain

# each thing, said alone and in the plural, the kinds it is, and what it is ("{a}" the thing asked about: "A whale")
_ANIMAL = "animal"  # the kinds of each thing are separated by "|"
_KINDS = {
    "spider/spiders": (f"arachnid|{_ANIMAL}", "A spider is an arachnid, not an insect: it has eight legs, and insects have "
                                              "six."),
    "scorpion/scorpions|tick/ticks": (f"arachnid|{_ANIMAL}", "{a} is an arachnid, like a spider, not an insect: it has "
                                                             "eight legs, and insects have six."),
    "whale/whales|dolphin/dolphins|porpoise/porpoises": (f"mammal|{_ANIMAL}", "{a} is a mammal, not a fish: it breathes air "
                                                                              "and feeds its young on milk."),
    "bat/bats": (f"mammal|{_ANIMAL}", "A bat is a mammal, not a bird: it has fur and feeds its young on milk, and it is the "
                                      "only mammal that truly flies."),
    "penguin/penguins|ostrich/ostriches|emu/emus": (f"bird|{_ANIMAL}", "{a} is a bird, with feathers, and it lays eggs, "
                                                                       "though it cannot fly."),
    "shark/sharks": (f"fish|{_ANIMAL}", "A shark is a fish, with a skeleton of cartilage rather than bone."),
    "seahorse/seahorses": (f"fish|{_ANIMAL}", "A seahorse is a fish, though it swims upright."),
    "koala/koalas": (f"marsupial|mammal|{_ANIMAL}", "A koala is a marsupial, not a bear: it carries its young in a pouch."),
    "panda/pandas|giant panda/giant pandas": (f"bear|mammal|{_ANIMAL}", "A giant panda is a bear."),
    "starfish|sea star/sea stars": (_ANIMAL, "{a} is not a fish: it is an echinoderm, a relative of the sea urchin."),
    "jellyfish": (_ANIMAL, "A jellyfish is not a fish: it has no bones, no brain and no heart."),
    "octopus/octopuses|squid/squids": (f"mollusc|{_ANIMAL}", "{a} is a mollusc, like a snail or a clam, with no bones at "
                                                             "all."),
    "frog/frogs|toad/toads|salamander/salamanders|newt/newts": (f"amphibian|{_ANIMAL}", "{a} is an amphibian: it starts "
                                                                "life in water and breathes partly through its skin."),
    "snake/snakes|lizard/lizards|turtle/turtles|tortoise/tortoises|crocodile/crocodiles|alligator/alligators":
        (f"reptile|{_ANIMAL}", "{a} is a reptile, with scaly skin, and it lays eggs on land."),
    "bee/bees|ant/ants|butterfly/butterflies|ladybird/ladybirds|ladybug/ladybugs|beetle/beetles|fly/flies|moth/moths"
    "|wasp/wasps|grasshopper/grasshoppers|mosquito/mosquitoes|dragonfly/dragonflies":
        (f"insect|bug|{_ANIMAL}", "{a} is an insect: it has six legs and a body in three parts."),
    "tomato/tomatoes": ("fruit|vegetable", "A tomato is a fruit to a botanist, as it grows from the flower and holds the "
                                           "seeds, and a vegetable in the kitchen."),
    "peanut/peanuts": ("legume", "A peanut is a legume, like peas and beans, not a true nut."),
    "strawberry/strawberries": ("fruit", "Botanically, a strawberry is not a berry, as its seeds are on the outside; a "
                                         "banana is."),
    "banana/bananas": ("fruit|berry", "Botanically, a banana is a berry; a strawberry is not."),
    "mushroom/mushrooms": ("fungus", "A mushroom is a fungus, not a plant, though it is cooked as a vegetable."),
    "pluto": ("dwarf planet", "Pluto is a dwarf planet: since 2006 it has not been counted among the planets."),
    "the sun|sun": ("star", "The Sun is a star, and the closest one to us."),
    "the moon|moon": ("moon|satellite", "The Moon is not a planet or a star: it is the Earth's natural satellite."),
}
_NAMES = {name: singular for names in _KINDS for forms in names.split("|") for singular in [forms.split("/")[0]]
          for name in forms.split("/")}  # fmt: skip
# the kinds a question may ask about
_KIND_WORDS = (r"insects?|bugs?|arachnids?|fish(?:es)?|mammals?|birds?|reptiles?|amphibians?|marsupials?|bears?"
               r"|molluscs?|mollusks?|animals?|fruits?|vegetables?|veggies?|nuts?|berr(?:y|ies)|legumes?|plants?|fung(?:us|i)"
               r"|planets?|stars?|dwarf planets?|moons?|satellites?")
_THINGS = "|".join(sorted(_NAMES, key=len, reverse=True))
_START = r"^(?:(?:so|and|ok|okay|hey|hmm|um|wait|quick question|is it true that)[,.]? )*"
KIND_ASKED = re.compile(
    rf"{_START}(?:is|are|isn't|aren't) (?:(?:a|an|the) )?(?P<thing>{_THINGS}) (?:really |actually |considered |classed as"
    rf" |classified as )?(?:(?:a|an) )?(?:type of |kind of |sort of )?(?P<kind>{_KIND_WORDS})"
    rf"(?P<either> or (?:(?:a|an) )?(?:{_KIND_WORDS}))?"
    rf"[?.!]*$"
    rf"|{_START}what (?:kind|type|sort) of (?:animal|creature|thing|food|plant|object) (?:is|are) (?:(?:a|an|the) )?"
    rf"(?P<thing_what>{_THINGS})[?.!]*$",
    re.I,
)


def kind_answer(question: str) -> str | None:
    """The answer to ``question`` asking what kind of thing something is, from the field guide ("No, a spider is an
    arachnid, not an insect: ..."), or None."""
    text = plain(question)
    asked = KIND_ASKED.search(text) if len(text) <= 100 else None
    if asked is None:
        return None
    singular = _NAMES[(asked["thing"] or asked["thing_what"]).lower()]
    kinds, says = next(found for names, found in _KINDS.items() if singular in re.split(r"[|/]", names))
    article = "An" if singular[0] in "aeiou" else "A"
    said = says.format(a=f"{article} {singular}")
    if not asked["kind"] or asked["either"]:  # what it is, or which of two
        return said
    yes_or_no = "Yes" if _kind(asked["kind"]) in kinds.split("|") else "No"
    return f"{yes_or_no}, {said if said.startswith('Pluto') else said[0].lower() + said[1:]}"


def _kind(said: str) -> str:
    """A kind as the field guide names it: "insects" -> "insect", "berries" -> "berry", "veggies" -> "vegetable"."""
    said = said.lower()
    named = {"bugs": "bug", "fishes": "fish", "fungi": "fungus", "mollusks": "mollusc", "mollusk": "mollusc",
             "veggies": "vegetable", "veggie": "vegetable", "berries": "berry", "dwarf planets": "dwarf planet"}
    return named.get(said) or (said[:-1] if said.endswith("s") and said not in ("fungus",) else said)
