"""What kind of thing an animal, a food or a body in the sky is (app.answers.kinds), the answer to a question."""

from __future__ import annotations

import pytest

from app.answers.kinds import kind_answer
from app.answers.notes import add_first, said_notes, user_words


@pytest.mark.parametrize(("question", "answer"), [
    ("Is a spider an insect?", "No, a spider is an arachnid, not an insect"),
    ("Are spiders insects?", "No, a spider is an arachnid"), ("Is a whale a fish?", "No, a whale is a mammal, not a fish"),
    ("Are dolphins fish?", "No, a dolphin is a mammal, not a fish"),
    ("Is a bat a bird?", "No, a bat is a mammal, not a bird"), ("Is a penguin a bird?", "Yes, a penguin is a bird"),
    ("Is a tomato a fruit or a vegetable?", "A tomato is a fruit to a botanist"),
    ("Are tomatoes fruits?", "Yes, a tomato is"), ("What kind of animal is a koala?", "A koala is a marsupial, not a bear"),
    ("Is a koala a bear?", "No, a koala is a marsupial"), ("Is an octopus a fish?", "No, an octopus is a mollusc"),
    ("Is the sun a star?", "Yes, the Sun is a star"), ("Is Pluto a planet?", "No, Pluto is a dwarf planet"),
    ("Is a peanut a nut?", "No, a peanut is a legume"), ("Are bees insects?", "Yes, a bee is an insect"),
    ("What kind of animal is an ant?", "An ant is an insect"), ("Is a shark a mammal?", "No, a shark is a fish"),
    ("Is a jellyfish a fish?", "No, a jellyfish is not a fish"),
    ("Is a banana a berry?", "Yes, botanically, a banana is a berry"),
    ("Is the moon a planet?", "No, the Moon is not a planet"), ("So is a frog a reptile?", "No, a frog is an amphibian"),
    ("Is a turtle an amphibian?", "No, a turtle is a reptile"),
    ("Is a tick an insect?", "No, a tick is an arachnid"),
    ("Is Pluto a dwarf planet?", "Yes, Pluto is a dwarf planet"), ("Are pandas bears?", "Yes, a giant panda is a bear"),
    ("Is a spider an animal?", "Yes, a spider is an arachnid"), ("Is a tomato a berry?", "Yes, a tomato"),
    ("Isn't a whale a mammal?", "Yes, a whale is a mammal"), ("Is a whale a fish or not?", "No, a whale"),
    ("Is a strawberry a berry?", "No, botanically"), ("Is a mushroom a plant?", "No, a mushroom is a fungus"),
    ("Is a giant panda a bear?", "Yes, a giant panda is a bear"), ("Is a sea star a fish?", "No, a sea star is not a fish"),
])  # fmt: skip
def test_a_question_about_what_kind_of_thing_it_is_gets_the_field_guides_answer(question: str, answer: str) -> None:
    said = kind_answer(question)
    assert said is not None and said.startswith(answer)
    asked = [{"role": "user", "content": question}]
    noted = add_first(said_notes(asked), asked)[-1]["content"]
    assert noted == f'{question}\n\n(Answer: "{said}")' and user_words(noted) == question


@pytest.mark.parametrize("question", [
    "Is a spider dangerous?", "Do spiders bite?", "Is a whale bigger than a shark?", "Is a tomato good for you?",
    "Are bats blind?", "Is the sun hot?", "Is a fish an animal or a plant?", "Is a cat a mammal?",  # no thing here
    "What kind of spider is this?", "Is my dog a mammal?", "Is a tomato a plant?", "Is a bat a bug?",  # not a kind spoken of
    "Is a spider a bug?", "Is a mushroom a vegetable?", "Is a starfish an animal?", "Is a strawberry a fruit?",
    "Is a peanut a fruit?", "Are stars fish?", "Is the a fish?",  # a word of a longer name alone
])  # fmt: skip
def test_other_questions_get_no_kind(question: str) -> None:
    assert kind_answer(question) is None
