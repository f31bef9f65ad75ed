"""Legs, wheels and sides counted for some things, the user's pets, children or siblings added up
(app.answers.counting), and their place beside the question."""

from __future__ import annotations

import time

import pytest

from app.answers.conversions import with_conversion_hint, without_conversion_hint
from app.answers.counting import counted, owned_counted
from app.answers.notes import add_first, has_note, said_notes, user_words


@pytest.mark.parametrize(("question", "answer"), [
    ("How many legs do three cats have?", "the answer is 12 legs: three cats have 4 legs each"),
    ("How many wheels do four bicycles have?", "the answer is 8 wheels: four bicycles have 2 wheels each"),
    ("How many legs do 3 cats and 2 chickens have?",
     "the answer is 16 legs in all: 3 cats have 4 legs each, and 2 chickens have 2 legs each"),
    ("A farmer has 5 cows and 3 ducks. How many legs are there?",
     "the answer is 26 legs in all: 5 cows have 4 legs each, and 3 ducks have 2 legs each"),
    ("If I have 2 dogs and a cat, how many legs do they have?",
     "the answer is 12 legs in all: 2 dogs have 4 legs each, and a cat has 4 legs"),
    ("How many sides do 3 triangles have?", "the answer is 9 sides: 3 triangles have 3 sides each"),
    ("How many legs are there on 4 chairs?", "the answer is 16 legs: 4 chairs have 4 legs each"),
    ("How many wheels are there on 3 tricycles and 2 cars?",
     "the answer is 17 wheels in all: 3 tricycles have 3 wheels each, and 2 cars have 4 wheels each"),
    ("How many legs do 2 mice have?", "the answer is 8 legs: 2 mice have 4 legs each"),
    ("How many paws do two puppies have?", "the answer is 8 paws: two puppies have 4 paws each"),
    ("How many feet do 3 people have?", "the answer is 6 feet: 3 people have 2 feet each"),
    ("how many legs do twenty-five ants have", "the answer is 150 legs: twenty-five ants have 6 legs each"),
    ("How many legs do five sheep have?", "the answer is 20 legs: five sheep have 4 legs each"),
    ("How many wheels are on 10 cars?", "the answer is 40 wheels: 10 cars have 4 wheels each"),
    ("How many wheels do a car and a bike have?", "the answer is 6 wheels in all: a car has 4 wheels, and a bike has 2 wheels"),
    ("A spider and an ant, how many legs in total?", "the answer is 14 legs in all: a spider has 8 legs, and an ant has 6 legs"),
    ("Three cats and two dogs. How many legs altogether?",
     "the answer is 20 legs in all: three cats have 4 legs each, and two dogs have 4 legs each"),
])  # fmt: skip
def test_the_count_is_worked_out(question: str, answer: str) -> None:
    assert counted(question) == f"Worked out: {answer}."


@pytest.mark.parametrize("question", [
    "How many legs does a spider have?", "How many legs does one snake have?",  # one thing: the model knows it
    "How many legs do 3 octopuses have?", "How many legs do three cats and two robots have?",  # not listed, so no total
    "How many feet do 4 chairs have?", "How many legs do 0 cats have?", "How many cats have three legs?",
    "How many wheels does my car have?", "How many sides does this story have?",
    "There are 4 cats. How many legs does a cat have?", "I've got 2 cats, how many legs do I have?",  # not what is asked
    "I have two cats, how many legs does each one have?", "How many paws do two chickens have?",
    "How many ſides do 3 triangles have?",
])  # fmt: skip
def test_other_questions_get_nothing(question: str) -> None:
    assert counted(question) is None


def test_the_count_goes_beside_the_question_and_comes_off() -> None:
    question = "How many legs do three cats have?"
    hinted = with_conversion_hint([{"role": "user", "content": question}])[-1]["content"]
    assert hinted == f"{question}\n\n(Worked out: the answer is 12 legs: three cats have 4 legs each.)"
    assert without_conversion_hint(hinted) == question


def test_long_text_costs_next_to_nothing() -> None:
    started = time.perf_counter()
    for text in ["How many legs do " + "three cats and " * 2000 + "have?", "How many legs do " + "a " * 70 + "cats have?"]:
        counted(text)
    assert time.perf_counter() - started < 1.0


@pytest.mark.parametrize(("earlier", "question", "answer"), [
    (["I have three cats and two dogs."], "How many pets do I have?", "5 pets: three cats and two dogs"),
    (["I've got a dog, two cats and a goldfish.", "What's the capital of Spain?"], "How many pets do I have?",
     "4 pets: a dog, two cats and a goldfish"),
    (["I have two sons and a daughter."], "How many children do I have?", "3 children: two sons and a daughter"),
    (["I have two brothers and a sister."], "How many siblings do I have?", "3 siblings: two brothers and a sister"),
    (["We have four chickens, two goats and a pony at home."], "How many animals do we have?",
     "7 animals: four chickens, two goats and a pony"),
    ([], "I have three sisters and a brother. How many brothers and sisters do I have?",
     "4 brothers and sisters: three sisters and a brother"),  # the list before the question
])  # fmt: skip
def test_what_the_user_listed_is_added_up(earlier: list[str], question: str, answer: str) -> None:
    assert owned_counted(question, earlier) == f"Worked out: the answer is {answer}."


@pytest.mark.parametrize(("earlier", "question"), [
    (["I have two cats and a husband."], "How many pets do I have?"),  # something not of the kind
    (["I have three cats."], "How many pets do I have?"),  # one kind: the count as said
    (["I have two kids, a boy and a girl."], "How many kids do I have?"),  # the total given
    (["I have three cats and two dogs.", "I also have two rabbits."], "How many pets do I have?"),  # two lists
    (["I have three cats and two dogs, and I live in Paris."], "How many pets do I have?"),  # where does it end?
    (["I had three cats and two dogs."], "How many pets do I have?"), (["She has three cats and two dogs."],
     "How many pets does she have?"), (["I have three cats and two dogs."], "How many legs do I have?"),
    (["I have three cats and two dogs."], "How many pets do I have? And what should I name the next one?"),
])  # fmt: skip
def test_other_lists_and_questions_get_nothing(earlier: list[str], question: str) -> None:
    assert owned_counted(question, earlier) is None


def test_the_total_goes_beside_a_later_question_and_comes_off() -> None:
    asked = [{"role": "user", "content": "I have three cats and two dogs."}, {"role": "assistant", "content": "Lovely!"},
             {"role": "user", "content": "How many pets do I have?"}]  # fmt: skip
    noted = add_first(said_notes(asked), asked)[-1]["content"]
    assert noted == "How many pets do I have?\n\n(Worked out: the answer is 5 pets: three cats and two dogs.)"
    assert user_words(noted) == "How many pets do I have?" and has_note(noted)
    assert said_notes(asked, figures=False) == ()  # figures off: the model's own count
