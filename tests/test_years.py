"""Ages and years counted from this year (app.answers.years), and their place beside the question."""

from __future__ import annotations

import datetime
import time

import pytest

from app.answers.conversions import with_conversion_hint, without_conversion_hint
from app.answers.years import my_age, years_counted

TODAY = datetime.date(2026, 12, 6)


@pytest.mark.parametrize(("question", "answer"), [
    ("If I was born in 1990, how old am I?", "born in 1990, one turns 36 in 2026: 36 once the birthday has come, 35 before it"),
    ("If I was born in 1990, how old am I this year?", "the answer is 36: born in 1990, one turns 36 in 2026"),
    ("How old is someone born in 2000?", "born in 2000, one turns 26 in 2026: 26 once the birthday has come, 25 before it"),
    ("How old is Tom if he was born in the year 1961?",
     "born in 1961, one turns 65 in 2026: 65 once the birthday has come, 64 before it"),
    ("My daughter was born in 2019. How old will she be next year?",
     "the answer is 8: born in 2019, one turns 8 next year, in 2027"),
    ("How old will I be in 2030 if I was born in 1990?", "the answer is 40: born in 1990, one turns 40 in 2030"),
    ("If I was born in 1990, how old was I in 2000?", "the answer is 10: born in 1990, one turned 10 in 2000"),
    ("How old will I be in five years if I was born in 1990?",
     "the answer is 41: born in 1990, one turns 41 in 5 years, in 2031"),
    ("My son was born in 2010, how old was he last year?", "the answer is 15: born in 2010, one turned 15 last year, in 2025"),
    ("How old is a baby born in 2026?", "born in 2026, one is under a year old"),
    ("When will I turn 50 if I was born in 1980?", "the answer is 2030: born in 1980, one turns 50 in 2030"),
    ("I'm 30. What year was I born?",
     "one who is 30 in 2026 was born in 1996 if the birthday has come this year, and in 1995 if not"),
    ("If my mom is 60 years old, when was she born?",
     "one who is 60 in 2026 was born in 1966 if the birthday has come this year, and in 1965 if not"),
    ("How many years ago was 1969?", "1969 was 57 years ago, as it is 2026 now"),
    ("How long ago was 1989?", "1989 was 37 years ago, as it is 2026 now"),
    ("How many years has it been since 2000?", "2000 was 26 years ago, as it is 2026 now"),
    ("How many years ago did World War 2 end in 1945?", "1945 was 81 years ago, as it is 2026 now"),
    ("How many years until 2050?", "2050 is 24 years from now, as it is 2026 now"),
    ("How long is it until 2030?", "2030 is 4 years from now, as it is 2026 now"),
    ("What year will it be in 10 years?", "in 10 years it will be 2036, as it is 2026 now"),
    ("What year was it twenty years ago?", "20 years ago it was 2006, as it is 2026 now"),
    ("How many years are there between 1990 and 2020?", "the answer is 30 years: from 1990 to 2020"),
    ("How many years from 1776 to 2026?", "the answer is 250 years: from 1776 to 2026"),
    ("How many years are between 1990 and 2020?", "the answer is 30 years: from 1990 to 2020"),
    ("I was born in 1990. How old was I ten years ago?", "the answer is 26: born in 1990, one turned 26 in 2016, 10 years ago"),
    ("I was born in 1990, what's my age?", "born in 1990, one turns 36 in 2026: 36 once the birthday has come, 35 before it"),
    ("What age would I be if I was born in 1990?",
     "born in 1990, one turns 36 in 2026: 36 once the birthday has come, 35 before it"),
    ("How many years since the moon landing in 1969?", "1969 was 57 years ago, as it is 2026 now"),
    ("How many years have passed since 1969?", "1969 was 57 years ago, as it is 2026 now"),
])  # fmt: skip
def test_the_years_are_worked_out(question: str, answer: str) -> None:
    assert years_counted(question, TODAY) == f"Worked out: {answer}."


@pytest.mark.parametrize("question", [
    "What year is it?", "How old are you?", "I was born in 1990.", "In which year was I born?",  # the clock's, its own, a memory
    "How old is the universe?", "What happened in 1969?", "How many years ago was the Titanic?", "How long until Christmas?",
    "How old would someone born in 1800 be?", "How old will I be in 2030 if I was born in 2035?",  # no one's age
    "How many years ago was 2030?", "How many years until 1990?", "What year was it?", "How many years are in a decade?",
    "I was born in 1990 and my brother was born in 1993. How old am I?",  # whose year?
    "I'm 30 and she's 28. When was she born?", "How many years between 1990 and 1990?",
    # another year, or another person, than the one counted from
    "I was born in 1990 and got married in 2015. How old am I?", "I was born in 1990 and my brother in 1993. How old is he?",
    "How old is my cat? I got her in 2015. She was born in 2014.", "My son is 8 months old. What year was he born?",
    "I turned 40 in 2020. What year was I born?", "What year was I born if I'm 30 in 2020?",
    "My dad was 30 when I was born in 1990. How old is he now?", "I was born in 1990. How old was my dad when I was born?",
    "My son was born in 2015. When will my daughter turn 18?", "My dad is 60. When was my son born?",
    "She is 30. When was I born?", "I was born in 1990. How old was I when the Berlin Wall fell?",
    # no year, no age: BC, a clock time, a height, months, days
    "How long ago was 1000 BC?", "How long until 2045 tonight?", "How long ago was the meeting at 1400?",
    "My daughter was born in 2020. When will she be 4 feet tall?", "When does my son turn 18 months? He was born in 2025.",
    "I was born in 1990. When will it be 5 o'clock?", "How old will I be in 2000 days if I was born in 1990?",
    "What year will it be in 10 years if it's 2020 now?", "How long until 2030 in days?",
])  # fmt: skip
def test_other_questions_get_nothing(question: str) -> None:
    assert years_counted(question, TODAY) is None


def test_the_years_go_beside_the_question_and_come_off_though_the_year_turned() -> None:
    question = "How many years ago was 1969?"
    hinted = with_conversion_hint([{"role": "user", "content": question}])[-1]["content"]
    this_year = datetime.date.today().year
    assert hinted == f"{question}\n\n(Worked out: 1969 was {this_year - 1969} years ago, as it is {this_year} now.)"
    assert without_conversion_hint(hinted) == question
    last_year = f"{question}\n\n(Worked out: 1969 was {this_year - 1970} years ago, as it is {this_year - 1} now.)"
    assert without_conversion_hint(last_year) == question  # added before New Year, read after it
    assert without_conversion_hint(f"{question}\n\n(my own words)") == f"{question}\n\n(my own words)"


def test_long_text_costs_next_to_nothing() -> None:
    started = time.perf_counter()
    for text in ["How old am I if I was born in 1990 " + "and born in 1991 " * 2000, "how old " * 19 + "born in 1990?"]:
        years_counted(text)
    assert time.perf_counter() - started < 1.0


@pytest.mark.parametrize(("question", "earlier", "answer"), [
    ("How old am I?", ["I was born in 1978."], "born in 1978, one turns 48 in 2026: 48 once the birthday has come, 47 before it"),
    ("So how old will I be next year?", ["Hi!", "I was born in 1990, in Lisbon.", "What's the capital of Peru?"],
     "the answer is 37: born in 1990, one turns 37 next year, in 2027"),
    ("When will I turn 60?", ["I'm born in 1970."], "the answer is 2030: born in 1970, one turns 60 in 2030"),
    ("How old am I?", ["I'm 50 years old.", "I was born in 1976."],
     "born in 1976, one turns 50 in 2026: 50 once the birthday has come, 49 before it"),  # the latest said
    ("Can you tell me how old I am?", ["I was born in 1978. No wait, I was born in 1980.", "I'm 5 minutes away."],
     "born in 1980, one turns 46 in 2026: 46 once the birthday has come, 45 before it"),
    ("How old will I be in 2030?", ["I was born in 1978."], "the answer is 52: born in 1978, one turns 52 in 2030"),
    ("What's my age?", ["I was born in 1978."],
     "born in 1978, one turns 48 in 2026: 48 once the birthday has come, 47 before it"),
])  # fmt: skip
def test_the_users_age_comes_from_the_birth_year_they_gave(question: str, earlier: list[str], answer: str) -> None:
    assert my_age(question, earlier, TODAY) == f"Worked out: {answer}."


@pytest.mark.parametrize(("question", "earlier"), [
    ("How old am I?", ["I was born in 1978.", "Actually, I'm 50."]),  # an age given after it
    ("How old am I?", ["My daughter was born in 2019."]), ("How old is she?", ["My daughter was born in 2019."]),
    ("How old am I?", []), ("What year was I born?", ["I was born in 1978."]),  # the year itself: the model recalls it
    ("How old am I if I was born in 1980?", ["I was born in 1978."]),  # the question's own year: its figure
    ("How old was I when I moved to Paris?", ["I was born in 1978."]),
])  # fmt: skip
def test_no_age_without_a_birth_year_of_the_users(question: str, earlier: list[str]) -> None:
    assert my_age(question, earlier, TODAY) is None
