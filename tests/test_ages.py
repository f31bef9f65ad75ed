"""One person's age from another's (app.answers.ages), and its place beside the question."""

from __future__ import annotations

import pytest

from app.answers.ages import ages_apart
from app.answers.conversions import figure


@pytest.mark.parametrize(("question", "answer"), [
    ("My sister is 3 years older than me and I'm 25. How old is she?", "28: 25 + 3 = 28"),
    ("I'm 30 and my brother is 4 years younger. How old is he?", "26: 30 - 4 = 26"),
    ("My dad is 28 years older than me. I'm 12. How old is my dad?", "40: 12 + 28 = 40"),
    ("I'm twenty-five and my brother is three years older than me. How old is he?", "28: 25 + 3 = 28"),
    ("My sister is 30 and I'm 4 years younger than her. How old am I?", "26: 30 - 4 = 26"),
    ("I'm 40 and my daughter is 12. How old will she be when I'm 50?",
     "22: 50 - 40 = 10 years from now, and 12 + 10 = 22"),
    ("My dog is 5 and I'm 30. How old will I be when he's 10?", "35: 10 - 5 = 5 years from now, and 30 + 5 = 35"),
    ("My son is 8 and I'm 36. How old was I when he was born?", "28: 36 - 8 = 28"),
    ("My mum is 60 and I'm 32. How old was she when I was born?", "28: 60 - 32 = 28"),
    ("My mum is 60 and I'm 32. What's the age difference?", "28 years: 60 - 32 = 28"),
    ("My brother is 10 years old and I am 14 years old. How many years older am I?", "4 years: 14 - 10 = 4"),
    ("My brother is 17 and I'm 12. How many years older is he?", "5 years: 17 - 12 = 5"),
    ("I'm 30 and my wife is 28. How many years younger is she?", "2 years: 30 - 28 = 2"),
    ("My sister is 3 years older than me and I'm 25. What's her age?", "28: 25 + 3 = 28"),
])  # fmt: skip
def test_an_age_from_another_and_the_years_between(question: str, answer: str) -> None:
    assert ages_apart(question) == f"Worked out: the answer is {answer}."
    assert figure(question) == f"Worked out: the answer is {answer}."


@pytest.mark.parametrize("question", [
    "How old is he?", "What's my age?", "I'm 12. How old is my dad?",  # a fact not given
    "My son is 8 and my daughter is 5. I'm 36. How old was I when he was born?",  # which child
    "My sister is 3 years older than my brother. I'm 25. How old is she?",  # older than another
    "I'm 5 feet tall and my son is 8. How old is he?",  # no age
    "My daughter is 8 months old and I'm 30. How old was I when she was born?",  # months
    "My son is 8 and I'm 36. How old was I when he was born in 2018?",  # a year: counted from the clock's
    "My son is 8 and I'm 6. How old was I when he was born?",  # not yet born
    "I'm 30 and my brother is 4 years younger. I'm 31. How old is he?",  # told twice, differently
    "My sister is 25 and I'm 25. How old is she?",
    "My dad is 200 years older than me. I'm 12. How old is my dad?",  # no person's age
    "I'm 30 and my dad is 4 times older. How old is he?", "I'm 30 and my dad is 2 times my age. How old is he?",
    "I'm 30 and my brother is 4 years younger. His wife is 25. How old is she?",  # a third person
    "I'm 30 and my brother is 4 years younger. John is 40. How old is he?",
    "I'm 30 and my brother is 4 years younger. My sister is 2 years older than him. What's her age?",
    "My son is 2.5 and I'm 30. How old was I when he was born?",  # no whole years
    "My son is 5 and a half and I'm 30. How old was I when he was born?",
    "My daughter is 12, no actually 13, and I'm 40. How old was I when she was born?",  # not sure, or not now
    "My daughter is 12 next week and I'm 40. How old was I when she was born?",
    "I'm 30 and my son is 5. How much older is my son?",  # a premise the figure would confirm
    "I'm 30 and my wife is 28. How many years older is she?",
])  # fmt: skip
def test_other_questions_get_nothing(question: str) -> None:
    assert ages_apart(question) is None
