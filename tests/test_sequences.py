"""A sequence asked to be said (counting, the alphabet, the months, the weekdays) is written out beside the request."""

from __future__ import annotations

import string

import pytest

from app.answers.conversions import with_conversion_hint, without_conversion_hint
from app.answers.days import MONTHS, WEEKDAYS
from app.answers.sequences import sequence_asked


def numbers(*values: int) -> str:
    return ", ".join(str(value) for value in values)


@pytest.mark.parametrize(("request_", "said"), [
    ("Can you count to ten?", numbers(*range(1, 11))),
    ("Count to twenty five.", numbers(*range(1, 26))),
    ("Could you count to five for me?", numbers(1, 2, 3, 4, 5)),
    ("count to 10 slowly please", numbers(*range(1, 11))),
    ("Let's count to three together.", numbers(1, 2, 3)),
    ("Can you count down from ten?", numbers(*range(10, 0, -1))),
    ("Please count down from five.", numbers(5, 4, 3, 2, 1)),
    ("Count down to zero.", numbers(*range(10, -1, -1))),
    ("Count backwards from 20 to 10.", numbers(*range(20, 9, -1))),
    ("Can you count from 3 to 9?", numbers(*range(3, 10))),
    ("Can you count by twos to ten?", numbers(2, 4, 6, 8, 10)),
    ("Can you count to ten by twos?", numbers(2, 4, 6, 8, 10)),
    ("Let's count to a hundred in tens.", numbers(*range(10, 101, 10))),
    ("Count down from twenty by fives.", numbers(20, 15, 10, 5)),
    ("Do you know how to count to four?", numbers(1, 2, 3, 4)),
    ("Can you recite the alphabet?", ", ".join(string.ascii_uppercase)),
    ("Can you say the alphabet backwards?", ", ".join(reversed(string.ascii_uppercase))),
    ("Can you name the months of the year?", ", ".join(MONTHS)),
    ("What are the months of the year in order?", ", ".join(MONTHS)),
    ("Can you list the months backwards?", ", ".join(reversed(MONTHS))),
    ("What are the days of the week?", ", ".join(WEEKDAYS)),
    ("Okay. Now tell me the days of the week.", ", ".join(WEEKDAYS)),
    ("Can you count to five in French?", "In French: un, deux, trois, quatre, cinq"),
    ("Count to ten in Spanish for me.", "In Spanish: uno, dos, tres, cuatro, cinco, seis, siete, ocho, nueve, diez"),
    ("Count down from three in German.", "In German: drei, zwei, eins"),
    ("Let's count to four in Mandarin.", "In Chinese: yi, er, san, si"),
])  # fmt: skip
def test_the_sequence_is_written_out(request_: str, said: str) -> None:
    first_words = "" if request_.startswith("What are") else "Sure! "
    assert sequence_asked(request_) == f'Answer: "{first_words}{said}."'


@pytest.mark.parametrize("text", [
    "Can you count to twelve in French?", "Count to ten in Klingon.", "Name the days of the week in French.",
    "My son can count to twenty.", "I can count to ten.", "How do I count to ten?", "Can you count the letters in banana?",
    "Can you count sheep for me?", "Count from five.", "Count to a hundred.",  # no end, or too long to say in one reply
    "What are the months with 31 days?", "Count to ten thousand.", "Count up from 9 down to 3.", "Count to ten by 0s.",
    "Which of the days of the week is the longest?", "Can you count?",
])  # fmt: skip
def test_other_text_gets_nothing(text: str) -> None:
    assert sequence_asked(text) is None


def test_the_sequence_goes_beside_the_request_and_comes_off() -> None:
    request = "Can you count to five?"
    hinted = with_conversion_hint([{"role": "user", "content": request}])[-1]["content"]
    assert hinted == f'{request}\n\n(Answer: "Sure! 1, 2, 3, 4, 5.")'
    assert without_conversion_hint(hinted) == request
