"""The time in another place (app.answers.world_clock), and its place beside the question."""

from __future__ import annotations

import datetime
import time

import pytest

from app.answers.conversions import figure, with_conversion_hint, without_conversion_hint
from app.answers.notes import CLOCK_NOTE
from app.answers.world_clock import asks_time_now, time_in_place

WINTER = datetime.datetime(2026, 12, 6, 12, 30, tzinfo=datetime.UTC)  # a Sunday; no summer time in the north
SUMMER = datetime.datetime(2026, 7, 6, 12, 30, tzinfo=datetime.UTC)


@pytest.mark.parametrize(("question", "winter", "summer"), [
    ("What time is it in Tokyo if it's 3 pm in London?", "when it is 3 pm in London, it is midnight the next day in Tokyo",
     "when it is 3 pm in London, it is 11 pm in Tokyo"),
    ("If it's noon in New York, what time is it in Los Angeles?", "when it is noon in New York, it is 9 am in Los Angeles",
     None),
    ("When it's 9 am in Paris, what time is it in Sydney?", "when it is 9 am in Paris, it is 7 pm in Sydney",
     "when it is 9 am in Paris, it is 5 pm in Sydney"),
    ("It's 10:30 pm in Chicago. What time is it in Berlin?",
     "when it is 10:30 pm in Chicago, it is 5:30 am the next day in Berlin", None),
    ("What time is 3 pm London time in Tokyo?", "when it is 3 pm in London, it is midnight the next day in Tokyo",
     "when it is 3 pm in London, it is 11 pm in Tokyo"),
    ("If it's 8 am here in Chicago, what time is it in Mumbai?", "when it is 8 am in Chicago, it is 7:30 pm in Mumbai",
     "when it is 8 am in Chicago, it is 6:30 pm in Mumbai"),
    ("If it's 18:00 in Paris, what time is it in New York?", "when it is 18:00 in Paris, it is 12:00 in New York", None),
    ("What time is it in New York City when it is 9 am in Beijing?",
     "when it is 9 am in Beijing, it is 8 pm the day before in New York City",
     "when it is 9 am in Beijing, it is 9 pm the day before in New York City"),
    ("What's the time difference between London and New York?", "London is 5 hours ahead of New York", None),
    ("What is the time difference between India and Japan?", "India is 3 and a half hours behind Japan", None),
    ("How many hours ahead is Tokyo of London?", "Tokyo is 9 hours ahead of London", "Tokyo is 8 hours ahead of London"),
    ("What's the time difference between London and Lisbon?", "London and Lisbon have the same time", None),
    ("What time is it in Tokyo?", "it is 9:30 pm on Sunday in Tokyo now", "it is 9:30 pm on Monday in Tokyo now"),
    ("What's the time in London right now?", "it is 12:30 pm on Sunday in London now",
     "it is 1:30 pm on Monday in London now"),
    ("what time is it in kathmandu", "it is 6:15 pm on Sunday in kathmandu now", "it is 6:15 pm on Monday in kathmandu now"),
    ("What's the time difference between India and Nepal?", "India is a quarter of an hour behind Nepal", None),
    ("What's the time difference between the UK and India?", "The UK is 5 and a half hours behind India",
     "The UK is 4 and a half hours behind India"),
    ("Do you know what time it is in the Philippines?", "it is 8:30 pm on Sunday in the Philippines now",
     "it is 8:30 pm on Monday in the Philippines now"),
    ("What's the current time in Tokyo, please?", "it is 9:30 pm on Sunday in Tokyo now", "it is 9:30 pm on Monday in Tokyo now"),
    ("If it's 11 pm in Pago Pago, what time is it in Kiritimati?",
     "when it is 11 pm in Pago Pago, it is midnight two days later in Kiritimati", None),
    ("If it's half past three in the afternoon in London, what time is it in New York?",
     "when it is 3:30 pm in London, it is 10:30 am in New York", None),  # a clock time said in words
])  # fmt: skip
def test_the_time_in_another_place_is_worked_out(question: str, winter: str, summer: str | None) -> None:
    assert time_in_place(question, WINTER) == f"Worked out: {winter}."
    assert time_in_place(question, SUMMER) == f"Worked out: {summer or winter}."


@pytest.mark.parametrize("question", [
    "What time is it?", "What time is it in Australia?", "What time is it in the US?",  # here, or a place of many zones
    "What time is it in Tokyo if it's 3 pm here?", "I'm in London and it's 3 pm. What time is it in Tokyo?",
    "What time does the store open in Paris?", "What time is it in Narnia?", "Is it night in Tokyo?",
    "What time is it in Tokyo if it's 3 pm in London or in Paris?", "What time should I call my mum in Sydney?",
    "What time will it be in Tokyo in 3 hours if it's 3 pm in London?",  # counted from one of them: neither's
    "If it's 10 in Tokyo, what time is it in New York?",  # am or pm?
    "What time is it in Tokyo if it's half past three in London?",  # the same, said in words: and no time now either
    "What time is it at the reunion?", "What time is it in İstanbul?", "What time is it in ıstanbul?",
])  # fmt: skip
def test_other_questions_get_nothing(question: str) -> None:
    assert time_in_place(question, WINTER) is None


def test_a_time_counted_in_a_question_naming_two_places_gets_nothing() -> None:
    assert figure("If it's 3 pm in London, what time will it be in 2 hours?") == "Worked out: the answer is 5 pm."
    for question in ["If my flight leaves London at 9 am and takes 12 hours, what time is it in Tokyo when I land?",
                     "If it's 3 pm in London, what time will it be in Tokyo 2 hours later?"]:
        assert figure(question) is None


def test_the_clock_note_leaves_a_place_alone_and_the_hint_comes_off_a_minute_later() -> None:
    question = "What time is it in Tokyo?"
    assert not CLOCK_NOTE.finds(question) and CLOCK_NOTE.finds("What time is it?")
    hinted = with_conversion_hint([{"role": "user", "content": question}])[-1]["content"]
    assert hinted.startswith(f"{question}\n\n(Worked out: it is ") and hinted.endswith(" in Tokyo now.)")
    assert without_conversion_hint(hinted) == question
    earlier = f"{question}\n\n(Worked out: it is 1:00 am on Monday in Tokyo now.)"  # read from the clock a minute ago
    assert asks_time_now(question) and without_conversion_hint(earlier) == question
    typed = "What time is it?\n\n(Worked out: it is 1:00 am on Monday in Tokyo now.)"  # not the server's
    assert without_conversion_hint(typed) == typed


def test_long_text_costs_next_to_nothing() -> None:
    started = time.perf_counter()
    for text in ["What time is it in " + "Tokyo " * 3000, "If it's 3 pm in " + "New York " * 2000 + "?",
                 "What time is it in Tokyo if it's " + "3 " * 500 + "pm in London?"]:
        assert time_in_place(text, WINTER) is None
    assert time.perf_counter() - started < 1.0
