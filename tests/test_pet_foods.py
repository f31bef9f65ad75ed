"""Foods poisonous to dogs and cats (app.answers.pet_foods), beside the question or the message about one."""

from __future__ import annotations

import pytest

from app.answers.conversions import figure, with_conversion_hint, without_conversion_hint
from app.answers.pet_foods import pet_food_asked


@pytest.mark.parametrize(("said", "answer"), [
    ("Can dogs eat grapes?", "Grapes and raisins are poisonous to dogs"), ("Can dogs have raisins?", "Grapes and raisins"),
    ("Can my dog eat chocolate?", "Chocolate is poisonous"), ("Is chocolate bad for cats?", "Chocolate is poisonous"),
    ("My dog ate some chocolate.", "Chocolate is poisonous"), ("Oh no, my puppy just ate a grape!", "Grapes and raisins"),
    ("Can cats eat onions?", "Onions, garlic"), ("Is garlic safe for dogs?", "Onions, garlic"),
    ("Are lilies poisonous to cats?", "Lilies are poisonous to cats"), ("My cat licked a lily.", "Lilies"),
    ("Can dogs drink coffee?", "Coffee, tea and anything with caffeine"), ("Can my dog eat sugar-free gum?", "Xylitol"),
    ("Can I give my dog chocolate?", "Chocolate is poisonous"), ("Is it safe for dogs to eat grapes?", "Grapes and raisins"),
    ("Is it ok to give my cat some onion?", "Onions, garlic"), ("Can dogs eat macadamia nuts?", "Macadamia nuts"),
])  # fmt: skip
def test_a_food_poisonous_to_a_pet_gets_the_vets_word(said: str, answer: str) -> None:
    found = pet_food_asked(said)
    assert found is not None and found.startswith(f'Vet\'s list: "{answer}')
    assert found.endswith('If a pet has eaten some, take it to a vet straight away."')
    assert figure(said) == found


@pytest.mark.parametrize("said", [
    "Can dogs eat carrots?", "Can dogs eat peanut butter?",  # not on the list: the model's
    "Can cats eat grapes?", "Can dogs eat lilies?",  # a food the list names for the other pet only
    "Can I eat grapes?", "Is chocolate bad for you?", "My dog ate my homework.", "My dog loves chocolate cake ads.",
])  # fmt: skip
def test_other_messages_get_no_vets_word(said: str) -> None:
    assert pet_food_asked(said) is None


def test_the_vets_word_goes_beside_the_question_and_comes_off() -> None:
    question = "Can dogs eat grapes?"
    noted = with_conversion_hint([{"role": "user", "content": question}])[-1]["content"]
    assert noted.endswith('(Vet\'s list: "Grapes and raisins are poisonous to dogs, even a few, and can damage their '
                          'kidneys. If a pet has eaten some, take it to a vet straight away.")')
    assert without_conversion_hint(noted) == question
