"""Foods poisonous to dogs and cats (app.answers.pet_foods), the answer to a question or a message about one."""

from __future__ import annotations

import pytest

from app.answers.notes import add_first, said_notes, user_words
from app.answers.pet_foods import pet_food_answer


@pytest.mark.parametrize(("said", "answer"), [
    ("Can dogs eat grapes?", "No, grapes and raisins are poisonous to dogs"), ("Can dogs have raisins?", "No, grapes"),
    ("Can my dog eat chocolate?", "No, chocolate is poisonous"), ("Is chocolate bad for cats?", "Yes, chocolate is"),
    ("My dog ate some chocolate.", "Chocolate is poisonous"), ("Oh no, my puppy just ate a grape!", "Grapes and raisins"),
    ("Can cats eat onions?", "No, onions, garlic"), ("Is garlic safe for dogs?", "No, onions, garlic"),
    ("Are lilies poisonous to cats?", "Yes, lilies are poisonous to cats"), ("My cat licked a lily.", "Lilies"),
    ("Can dogs drink coffee?", "No, caffeine"), ("Can my dog eat sugar-free gum?", "No, xylitol"),
    ("Can I give my dog chocolate?", "No, chocolate"), ("Is it safe for dogs to eat grapes?", "No, grapes and raisins"),
    ("Is it ok to give my cat some onion?", "No, onions, garlic"), ("Can dogs eat macadamia nuts?", "No, macadamia nuts"),
    ("Is it bad for dogs to eat chocolate?", "Yes, chocolate"), ("Can cats eat grapes?", "No, grapes and raisins"),
    ("My dog drank some beer.", "Alcohol is poisonous"), ("Can dogs have green tea?", "No, caffeine"),
])  # fmt: skip
def test_a_food_poisonous_to_a_pet_gets_the_vets_word(said: str, answer: str) -> None:
    found = pet_food_answer(said)
    assert found is not None and found.startswith(answer)
    assert found.endswith("If a pet has eaten some, take it to a vet straight away.")
    asked = [{"role": "user", "content": said}]
    noted = add_first(said_notes(asked), asked)[-1]["content"]
    assert noted == f'{said}\n\n(Answer: "{found}")' and user_words(noted) == said


@pytest.mark.parametrize("said", [
    "Can dogs eat carrots?", "Can dogs eat peanut butter?",  # not on the list: the model's
    "Can dogs eat lilies?",  # a food the list names for the other pet only
    "Can my dog eat xylitol-free peanut butter?", "Can dogs eat grape tomatoes?", "Can dogs have tea tree oil?",
    "Can my dog eat wine gums?", "My cat ate a lily pad.", "My cat licked a lily of the valley.",  # another thing named
    "The dog ate chocolate in my dream.", "Can dogs eat chocolate-free treats?",
    "Can I eat grapes?", "Is chocolate bad for you?", "My dog ate my homework.", "My dog loves chocolate cake ads.",
])  # fmt: skip
def test_other_messages_get_no_vets_word(said: str) -> None:
    assert pet_food_answer(said) is None
