"""What kind of thing an animal, a food or a body in the sky is (app.answers.kinds), beside the question."""

from __future__ import annotations

import pytest

from app.answers.conversions import figure, with_conversion_hint, without_conversion_hint
from app.answers.kinds import kind_asked


@pytest.mark.parametrize(("question", "answer"), [
    ("Is a spider an insect?", "A spider is an arachnid, not an insect"), ("Are spiders insects?", "A spider is an arachnid"),
    ("Is a whale a fish?", "A whale is a mammal, not a fish"), ("Are dolphins fish?", "A dolphin is a mammal, not a fish"),
    ("Is a bat a bird?", "A bat is a mammal, not a bird"), ("Is a penguin a bird?", "A penguin is a bird"),
    ("Is a tomato a fruit or a vegetable?", "A tomato is a fruit to a botanist"), ("Are tomatoes fruits?", "A tomato is"),
    ("What kind of animal is a koala?", "A koala is a marsupial, not a bear"), ("Is a koala a bear?", "A koala is a marsupial"),
    ("Is an octopus a fish?", "An octopus is a mollusc"), ("Is the sun a star?", "The Sun is a star"),
    ("Is Pluto a planet?", "Pluto is a dwarf planet"), ("Is a peanut a nut?", "A peanut is a legume"),
    ("Are bees insects?", "A bee is an insect"), ("What kind of animal is an ant?", "An ant is an insect"),
    ("Is a shark a mammal?", "A shark is a fish"), ("Is a jellyfish a fish?", "A jellyfish is not a fish"),
    ("Is a banana a berry?", "Botanically, a banana is a berry"), ("Is the moon a planet?", "The Moon is not a planet"),
    ("So is a frog a reptile?", "A frog is an amphibian"), ("Is a turtle an amphibian?", "A turtle is a reptile"),
    ("Is a mushroom a vegetable?", "A mushroom is a fungus"), ("Is a tick an insect?", "A tick is an arachnid"),
])  # fmt: skip
def test_a_question_about_what_kind_of_thing_it_is_gets_the_field_guides_answer(question: str, answer: str) -> None:
    said = kind_asked(question)
    assert said is not None and said.startswith(f'Field guide: "{answer}') and figure(question) == said


@pytest.mark.parametrize("question", [
    "Is a spider dangerous?", "Do spiders bite?", "Is a whale bigger than a shark?", "Is a tomato good for you?",
    "Are bats blind?", "Is the sun hot?", "Is a fish an animal or a plant?", "Is a cat a mammal?",  # no thing here
    "What kind of spider is this?", "Is my dog a mammal?",
])  # fmt: skip
def test_other_questions_get_no_kind(question: str) -> None:
    assert kind_asked(question) is None


def test_the_kind_goes_beside_the_question_and_comes_off() -> None:
    question = "Is a spider an insect?"
    noted = with_conversion_hint([{"role": "user", "content": question}])[-1]["content"]
    assert noted.endswith('(Field guide: "A spider is an arachnid, not an insect: it has eight legs, and insects have six.")')
    assert without_conversion_hint(noted) == question
