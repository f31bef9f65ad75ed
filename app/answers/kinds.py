"""What kind of thing an animal, a food or a body in the sky is, checked beforehand, as the answer to a question.

Asked "Is a spider an insect?", the 1.5B said "Well, spiders are indeed insects." (2 of 2, with the yes-or-no
question's first words), "Is a whale a fish?" -> "Well, a whale is a fish." once, "Is a peanut a nut?" -> "Well, a
peanut is indeed a nut." (docs/benchmarks.md, "What kind of thing"). Given what it is beside the question, as a
record's holder is (``app.answers.records``), it began "Yes," to all of them ("Yes, a spider is an arachnid, not an
insect."), since the first words of a yes-or-no question are not given beside a figure. So, as a fact asked for is
drawn from facts checked beforehand (``app.answers.facts``), a question whether one of these things is of a kind ("Is
a whale a fish?", "Are bats birds?") gets the answer to say, "Yes" or "No" first, and why; one whether it is of one kind
or another ("Is a tomato a fruit or a vegetable?") or what kind it is ("What kind of animal is a koala?") what it is.
Each thing names the kinds it is and the ones it is taken for, which its answer explains; a question about another
kind ("Is a tomato a plant?") or about another thing ("Is a spider dangerous?") gets none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.answers.wording import plain


@dataclass(frozen=True)
class Kind:
    """Things of one kind, each as said alone and in the plural, the kinds they are and are not, and what to say of
    them ("{a}" the thing asked about: "A whale")."""

    names: tuple[tuple[str, str], ...]
    kinds: frozenset[str]
    not_kinds: frozenset[str]
    says: str
    proper: bool = False  # a name that keeps its capital after "Yes, " ("Pluto")


def _kind(names: str, kinds: str, not_kinds: str, says: str, *, proper: bool = False) -> Kind:
    """A ``Kind`` from words: "whale/whales, dolphin/dolphins", "mammal|animal", "fish"."""
    pairs = tuple((forms.split("/")[0], forms.split("/")[-1]) for forms in names.split(", "))
    return Kind(pairs, frozenset(kinds.split("|")), frozenset(not_kinds.split("|")) - {""}, says, proper)


KINDS = (
    _kind("spider/spiders", "arachnid|animal", "insect",
          "A spider is an arachnid, not an insect: it has eight legs, and insects have six."),
    _kind("scorpion/scorpions, tick/ticks", "arachnid|animal", "insect",
          "{a} is an arachnid, like a spider, not an insect: a grown one has eight legs, and insects have six."),
    _kind("whale/whales, dolphin/dolphins, porpoise/porpoises", "mammal|animal", "fish",
          "{a} is a mammal, not a fish: it breathes air and feeds its young on milk."),
    _kind("bat/bats", "mammal|animal", "bird",
          "A bat is a mammal, not a bird: it has fur and feeds its young on milk, and it is the only mammal that truly "
          "flies."),
    _kind("penguin/penguins, ostrich/ostriches, emu/emus", "bird|animal", "mammal|fish",
          "{a} is a bird, with feathers, and it lays eggs, though it cannot fly."),
    _kind("shark/sharks", "fish|animal", "mammal", "A shark is a fish, with a skeleton of cartilage rather than bone."),
    _kind("seahorse/seahorses", "fish|animal", "mammal", "A seahorse is a fish, though it swims upright."),
    _kind("koala/koalas", "marsupial|mammal|animal", "bear", "A koala is a marsupial, not a bear: it carries its young in "
                                                            "a pouch."),
    _kind("panda/pandas, giant panda/giant pandas", "bear|mammal|animal", "", "A giant panda is a bear."),
    _kind("starfish, sea star/sea stars", "", "fish", "{a} is not a fish: it is an echinoderm, a relative of the sea "
                                                      "urchin."),
    _kind("jellyfish", "", "fish", "A jellyfish is not a fish: it has no bones, no brain and no heart."),
    _kind("octopus/octopuses, squid/squids", "mollusc|animal", "fish", "{a} is a mollusc, like a snail or a clam, not a "
                                                                       "fish, with no bones at all."),
    _kind("frog/frogs, toad/toads, salamander/salamanders, newt/newts", "amphibian|animal", "reptile|fish",
          "{a} is an amphibian, not a reptile: like most amphibians it starts life in water, and it can breathe through "
          "its skin."),
    _kind("snake/snakes, lizard/lizards, turtle/turtles, tortoise/tortoises, crocodile/crocodiles, alligator/alligators",
          "reptile|animal", "amphibian|mammal", "{a} is a reptile, with dry, scaly skin."),
    _kind("bee/bees, ant/ants, butterfly/butterflies, ladybird/ladybirds, ladybug/ladybugs, beetle/beetles, fly/flies, "
          "moth/moths, wasp/wasps, grasshopper/grasshoppers, mosquito/mosquitoes, dragonfly/dragonflies",
          "insect|animal", "arachnid", "{a} is an insect: it has six legs and a body in three parts."),
    _kind("tomato/tomatoes", "fruit|berry|vegetable", "",
          "A tomato is a fruit to a botanist, a berry in fact, as it grows from the flower and holds the seeds, and a "
          "vegetable in the kitchen."),
    _kind("peanut/peanuts", "legume", "nut", "A peanut is a legume, like peas and beans, not a true nut."),
    _kind("strawberry/strawberries", "", "berry",
          "Botanically, a strawberry is not a berry, as its flesh grows from the base of the flower; a banana is."),
    _kind("banana/bananas", "fruit|berry", "", "Botanically, a banana is a berry; a strawberry is not."),
    _kind("mushroom/mushrooms", "fungus", "plant", "A mushroom is a fungus, not a plant."),
    _kind("pluto", "dwarf planet", "planet|star",
          "Pluto is a dwarf planet: since 2006 it has not been counted among the planets.", proper=True),
    _kind("sun", "star", "planet", "The Sun is a star, and the closest one to us."),
    _kind("moon", "moon|satellite", "planet|star",
          "The Moon is not a planet or a star: it is the Earth's natural satellite."),
)
_BY_NAME = {name: (kind, singular) for kind in KINDS for singular, plural in kind.names for name in (singular, plural)}
# the kinds a question may ask about, and the names said for them
_SAID_KINDS = {"insects": "insect", "arachnids": "arachnid", "fishes": "fish", "mammals": "mammal", "birds": "bird",
               "reptiles": "reptile", "amphibians": "amphibian", "marsupials": "marsupial", "bears": "bear",
               "molluscs": "mollusc", "mollusk": "mollusc", "mollusks": "mollusc", "animals": "animal", "fruits": "fruit",
               "vegetables": "vegetable", "veggie": "vegetable", "veggies": "vegetable", "nuts": "nut", "berries": "berry",
               "legumes": "legume", "plants": "plant", "fungi": "fungus", "planets": "planet", "stars": "star",
               "dwarf planets": "dwarf planet", "moons": "moon", "satellites": "satellite"}
_KIND_WORDS = "|".join(sorted({*_SAID_KINDS, *_SAID_KINDS.values()}, key=len, reverse=True))
_THINGS = "|".join(sorted(_BY_NAME, key=len, reverse=True))
_START = r"^(?:(?:so|and|ok|okay|hey|hmm|um|wait|quick question)[,.]? )*"
KIND_ASKED = re.compile(
    rf"{_START}(?:is|are|isn't|aren't) (?:(?:a|an|the) )?(?P<thing>{_THINGS}) (?:really |actually |considered |classed as"
    rf" |classified as )?(?:(?:a|an) )?(?:type of |kind of |sort of )?(?P<kind>{_KIND_WORDS})"
    rf"(?P<either> or (?:(?:a|an) )?(?:{_KIND_WORDS}))?(?: or not)?[?.!]*$"
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
    kind, singular = _BY_NAME[(asked["thing"] or asked["thing_what"]).lower()]
    said = kind.says.format(a=f"{'An' if singular[0] in 'aeiou' else 'A'} {singular}")
    if not asked["kind"] or asked["either"]:  # what it is, or which of two
        return said
    named = asked["kind"].lower()
    named = _SAID_KINDS.get(named, named)
    if named not in kind.kinds | kind.not_kinds:  # a kind its answer does not speak of
        return None
    return f"{'Yes' if named in kind.kinds else 'No'}, {said if kind.proper else said[0].lower() + said[1:]}"
