"""Roman numerals read and written (app.answers.roman), and their place beside the question."""

from __future__ import annotations

import time

import pytest

from app.answers.conversions import with_conversion_hint, without_conversion_hint
from app.answers.roman import as_roman, roman_asked


@pytest.mark.parametrize(("question", "answer"), [
    ("What is XIV in Roman numerals?", "XIV is 14"),
    ("What number is MCMXC?", "MCMXC is 1990"),
    ("What does the Roman numeral XL mean?", "XL is 40"),
    ("What year is MMXXVI?", "MMXXVI is 2026"),
    ("What is mcmxc in roman numerals?", "MCMXC is 1990"),
    ("Convert MMXXIV to a number.", "MMXXIV is 2024"),
    ("How do you write 2024 in Roman numerals?", "2024 in Roman numerals is MMXXIV"),
    ("What is 9 in Roman numerals?", "9 in Roman numerals is IX"),
    ("Write 48 in Roman numerals.", "48 in Roman numerals is XLVIII"),
    ("What is the Roman numeral for 3999?", "3999 in Roman numerals is MMMCMXCIX"),
    ("What's MCMXC in numbers?", "MCMXC is 1990"), ("What is twenty-five in Roman numerals?", "25 in Roman numerals is XXV"),
    ("What is 14 in roman?", "14 in Roman numerals is XIV"),
    ("What is 1,999 in Roman numerals?", "1999 in Roman numerals is MCMXCIX"),
    ("How would you write the year 2026 in Roman numerals?", "2026 in Roman numerals is MMXXVI"),
])  # fmt: skip
def test_the_numeral_is_worked_out(question: str, answer: str) -> None:
    assert roman_asked(question) == f"Worked out: {answer}."


@pytest.mark.parametrize("question", [
    "What does MIX mean?", "What is MIX?", "What number is IIII?", "What is MCMLXXXX in Roman numerals?",  # not by the rules
    "What is 4000 in Roman numerals?", "What is 0 in Roman numerals?", "What is a Roman numeral?", "Is XIV 14?",
    "What number is Liv?", "Who was the Roman emperor in 100 AD?", "What is CD?", "Who was Louis XIV?", "What is a CV?",
    "What is a Roman numeral for love?",
])  # fmt: skip
def test_other_questions_get_nothing(question: str) -> None:
    assert roman_asked(question) is None


def test_every_number_the_letters_write_reads_back() -> None:
    assert all(roman_asked(f"What number is {as_roman(n)} in Roman numerals?") == f"Worked out: {as_roman(n)} is {n}."
               for n in range(1, 4000))  # fmt: skip


def test_the_numeral_goes_beside_the_question_and_comes_off() -> None:
    question = "What number is MCMXC?"
    hinted = with_conversion_hint([{"role": "user", "content": question}])[-1]["content"]
    assert hinted == f"{question}\n\n(Worked out: MCMXC is 1990.)"
    assert without_conversion_hint(hinted) == question


def test_long_text_costs_next_to_nothing() -> None:
    started = time.perf_counter()
    for text in ["What is " + "M" * 5000 + " in Roman numerals?", "What number is " + "XIV " * 40]:
        roman_asked(text)
    assert time.perf_counter() - started < 1.0
