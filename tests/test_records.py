"""The world's record holders (app.answers.records), and their place beside the question."""

from __future__ import annotations

import pytest

from app.answers.conversions import figure, with_conversion_hint, without_conversion_hint
from app.answers.records import RECORDS, record_asked


@pytest.mark.parametrize(("question", "holder"), [
    ("What's the biggest country in the world?", "Russia"), ("What's the smallest country in the world?", "Vatican City"),
    ("Which country has the most people?", "India"), ("What's the most populous country?", "India"),
    ("What country has the largest population in the world?", "India"), ("What's the largest ocean?", "The Pacific"),
    ("What's the largest desert in the world?", "Antarctica"), ("What's the tallest mountain in the world?", "Mount Everest"),
    ("What's the longest river in the world?", "The Nile"), ("What's the biggest planet?", "Jupiter"),
    ("Which is the largest planet in the solar system?", "Jupiter"), ("What's the smallest planet?", "Mercury"),
    ("What's the hottest planet?", "Venus"), ("What's the largest continent?", "Asia"),
    ("What's the largest lake in the world?", "The Caspian Sea"), ("What's the largest bird?", "The ostrich"),
    ("What's the largest organ in the human body?", "The skin"),
    ("What's the smallest bone in the human body?", "The stapes"), ("What's the deepest part of the ocean?", "The Mariana"),
    ("What is the fastest land animal?", "The cheetah"), ("Which animal is the fastest?", "The peregrine falcon"),
    ("What is the biggest animal ever?", "The blue whale"), ("What is the tallest building?", "The Burj Khalifa"),
    ("What's the closest planet to the sun?", "Mercury"), ("What is the brightest star in the night sky?", "Sirius"),
    ("Which country is the largest?", "Russia"), ("So what's the largest land animal on earth?", "The African elephant"),
    ("Tell me the tallest animal in the world.", "The giraffe"), ("What's the longest bone in the body?", "The femur"),
    ("Which is the largest country in the world by area?", "Russia"), ("Which planet is the closest to the sun?", "Mercury"),
    ("What's the farthest planet from the sun?", "Neptune"), ("What's the largest animal that ever lived?", "The blue whale"),
    ("Whats the largest ocean", "The Pacific"), ("What's the largest freshwater lake?", "Lake Superior"),
    ("What's the largest animal in the ocean?", "The blue whale"), ("What's the smallest bone in your body?", "The stapes"),
    ("What is the largest planet in our solar system?", "Jupiter"),
])  # fmt: skip
def test_a_world_record_asked_for_gets_its_holder(question: str, holder: str) -> None:
    said = record_asked(question)
    assert said is not None and said.startswith(f'Record book: "{holder}') and figure(question) == said


@pytest.mark.parametrize("question", [
    "What's the largest country in Africa?", "What's the biggest country in Europe?",  # elsewhere: the model's
    "What's the biggest city in the world?",  # which is the largest is measured several ways
    "What's the biggest mistake people make?", "What's the largest number?", "Is Russia the largest country?",
    "What's the best country in the world?", "Why is the Pacific the largest ocean?",
    "What's the largest ocean and how deep is it?", "How big is the largest planet?",
    # a place no record here holds in: the universe, another planet's, all time for a living animal, the sea for a bird
    "What is the largest planet in the universe?", "What is the largest planet known?", "What is the brightest star in the "
    "universe?", "What is the tallest mountain in the solar system?", "What is the largest bird ever?",
    "What is the largest fish of all time?", "What is the largest country of all time?", "What is the tallest animal ever?",
    "What is the fastest animal in the ocean?", "What's the largest bird in the sea?", "What is the deepest part of the body?",
    "What's the longest bone in the animal kingdom?", "What's the largest living thing on earth?", "What is the fastest mammal?",
    "What's the closest planet?",  # to the Sun, or to the Earth?
])  # fmt: skip
def test_other_questions_get_no_record(question: str) -> None:
    assert record_asked(question) is None


def test_every_record_is_one_sentence_said_whole() -> None:
    for record in RECORDS:
        assert record.holder[0].isupper() and record.holder.endswith(".") and '"' not in record.holder


def test_the_record_goes_beside_the_question_and_comes_off() -> None:
    question = "What's the biggest country in the world?"
    noted = with_conversion_hint([{"role": "user", "content": question}])[-1]["content"]
    assert noted.endswith('(Record book: "Russia is the largest country in the world, by area.")')
    assert without_conversion_hint(noted) == question
