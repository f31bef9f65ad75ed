"""The weekday or clock time a question counts to (app.answers.days), and its place beside the question."""

from __future__ import annotations

import time

import pytest

from app.answers.conversions import with_conversion_hint, without_conversion_hint
from app.answers.days import day_or_time
from app.answers.notes import CLOCK_NOTE


@pytest.mark.parametrize(("question", "answer"), [
    ("If today is Monday, what day is it in three days?", "the answer is Thursday"),
    ("If today is Friday, what day will it be in 4 days?", "the answer is Tuesday"),
    ("If today is Wednesday, what day was it two days ago?", "the answer is Monday"),
    ("If today is Saturday, what day will it be in 10 days?", "the answer is Tuesday"),
    ("If today is Sunday, what day is the day after tomorrow?", "the answer is Tuesday"),
    ("What day will it be in two weeks if today is Tuesday?", "the answer is Tuesday"),
    ("Today's Thursday. What day will it be 5 days from now?", "the answer is Tuesday"),
    ("What day is 10 days after Saturday?", "the answer is Tuesday"),
    ("Which day comes 3 days before Monday?", "the answer is Friday"),
    ("What day of the week will it be 9 days after a Wednesday?", "the answer is Friday"),
    ("If yesterday was Monday, what day is it today?", "the answer is Tuesday"),
    ("If tomorrow is Friday, what day was yesterday?", "the answer is Wednesday"),
    ("If yesterday was Saturday, what day is tomorrow?", "the answer is Monday"),
    ("What day of the week was July 4, 1776?", "July 4, 1776 was a Thursday"),
    ("What day of the week was the 4th of July, 1776?", "The 4th of July, 1776 was a Thursday"),
    ("What day of the week is Christmas 2026?", "Christmas 2026 is a Friday"),
    ("What day was 14 March 1879?", "14 March 1879 was a Friday"),
    ("What day of the week is New Year's Day 2030?", "New Year's Day 2030 is a Tuesday"),
    ("If it's 3 pm now, what time will it be in 5 hours?", "the answer is 8 pm"),
    ("If it's 10:30, what time will it be in 45 minutes?", "the answer is 11:15"),
    ("If it is 10:30, what time will it be in 3 hours?", "the answer is 1:30"),  # on a dial, as it was asked
    ("If it is 18:30, what time will it be in 3 hours?", "the answer is 21:30"),
    ("What time is it 5 hours after 3 pm?", "the answer is 8 pm"),
    ("What time was it 2 hours ago if it's noon now?", "the answer is 10 am"),
    ("If it is 11:45 pm, what time will it be in an hour and a half?", "the answer is 1:15 am"),
    ("If it's 9 am, what time is it in two and a half hours?", "the answer is 11:30 am"),
    ("If it is 8:10 am, what time will it be in 2 hours and 35 minutes?", "the answer is 10:45 am"),
    ("What time will it be in a quarter of an hour if it is 4:50 pm?", "the answer is 5:05 pm"),
    ("If it is 7 pm, what time was it half an hour ago?", "the answer is 6:30 pm"),
    ("If my train leaves at 7:50 am and the trip takes 2 hours and 25 minutes, what time do I arrive?",
     "the answer is 10:15 am"),
    ("My flight leaves at 10:45 pm and takes 3 and a half hours. What time do I land?", "the answer is 2:15 am"),
    ("I start work at 8:30 am and work for 9 hours. When do I finish?", "the answer is 5:30 pm"),
    ("If I leave at 6:15 and the drive takes 50 minutes, when will I get there?", "the answer is 7:05"),
    ("If a movie is 2 hours and 15 minutes long and starts at 7:30, when does it end?", "the answer is 9:45"),  # "8:45"
    ("The game lasts 90 minutes and starts at 3 pm. What time does it finish?", "the answer is 4:30 pm"),
    ("How many days are there from March 1 to April 15?", "the answer is 45 days"),
    ("How many days from February 1 to March 1?", "the answer is 28 days, 29 in a leap year"),
    ("How many days between December 20 and January 5?", "the answer is 16 days"),
    ("How many days are there between January 1, 2024 and March 1, 2024?", "the answer is 60 days"),
    ("How many weeks from January 1 to March 1?", "the answer is 8 weeks and 3 days in a common year"),
    ("How many nights from the 3rd of May to the 10th of May?", "the answer is 7 nights"),
    ("If today is December 20, how many days until Christmas?", "the answer is 5 days"),  # 21 and 22 said
    ("It's October 1st, how many days until Halloween?", "the answer is 30 days"),
    ("If it's the 28th of December, how many days until New Year's Day?", "the answer is 4 days"),
    ("How many sleeps until Christmas if today is December 1?", "the answer is 24 days"),
    ("It's February 20. How many days until March 1?", "the answer is 9 days, 10 in a leap year"),
    ("Today is June 10, 2027. How many days until Christmas?", "the answer is 198 days"),
    ("My birthday is March 3. If today is February 25, how many days until my birthday?",  # "10"
     "the answer is 6 days, 7 in a leap year"),
    ("If today is May 1 and my exam is on May 20, how many days until my exam?", "the answer is 19 days"),
    ("What time is half an hour after 11:45?", "the answer is 12:15"),  # "12:30"
    ("If it's 7:20, how many minutes until 8 o'clock?", "the answer is 40 minutes"),  # "10 minutes"
    ("If it's 19:30, how many minutes until 8 o'clock?", "the answer is 30 minutes"),  # the next 8 on a dial
    ("How many hours from 10:30 am to 4:15 pm?", "the answer is 5 hours and 45 minutes"),
    ("How many hours is it from 9 am to 5 pm?", "the answer is 8 hours"),
    ("How many hours from 9 to 5?", "the answer is 8 hours"),  # a working day on a dial, not 20 hours
    ("If I go to bed at 11 pm and wake up at 7 am, how many hours did I sleep?", "the answer is 8 hours"),  # "4 hours"
    ("I start work at 9 am and finish at 5:30 pm. How long is my day?", "the answer is 8 hours and 30 minutes"),
    ("The movie starts at 7 pm and ends at 9:15 pm, how long is it?", "the answer is 2 hours and 15 minutes"),
    ("If I leave at 3 and arrive at 5, how long does it take?", "the answer is 2 hours"),
    ("How many hours between 10 pm and 6 am?", "the answer is 8 hours"),
    ("How many minutes from 9:40 to 10:15?", "the answer is 35 minutes"),
    ("If it's 3 pm, what time will it be in 1 hour 30 minutes?", "the answer is 4:30 pm"),
    ("If it's 7.30 pm, what time will it be in 2 hours?", "the answer is 9:30 pm"),
    ("If it's 3 pm, what time will it be in twenty-five minutes?", "the answer is 3:25 pm"),
    ("If today is Monday, what day is it in 2 weeks and 3 days?", "the answer is Thursday"),
    ("If today is Sunday, what is the day after tomorrow?", "the answer is Tuesday"),
    ("How many hours from 9 am to 5?", "the answer is 8 hours"), ("How many hours from 5 to 9 pm?", "the answer is 4 hours"),
    ("How many days from March 1 to April 15 inclusive?", "the answer is 46 days"),
    ("How many days from March 1 through March 31?", "the answer is 31 days"),
    ("How many days from December 1 to March 1?", "the answer is 90 days, 91 in a leap year"),
    ("How many days from March 1 to March 2?", "the answer is 1 day"),
    ("What month comes two months after November?", "the answer is January"),
    ("What month is 3 months before February?", "the answer is November"),
    ("Which month is 14 months from June?", "the answer is August"),
    ("If it's March, what month will it be in 10 months?", "the answer is January"),
    ("If it is October now, what month was it 4 months ago?", "the answer is June"),
    # a clock time said in words
    ("If it's half past seven, what time will it be in 2 hours?", "the answer is 9:30"),
    ("If it's quarter to nine now, what time will it be in 45 minutes?", "the answer is 9:30"),
    ("The film starts at quarter past eight and lasts 2 hours. When does it end?", "the answer is 10:15"),
    ("If it's twenty to six, what time will it be in 30 minutes?", "the answer is 6:10"),
    ("What time will it be 3 hours after half past eleven at night?", "the answer is 2:30 am"),
    ("It's a quarter after three in the afternoon, what time will it be in 90 minutes?", "the answer is 4:45 pm"),
    ("If it is ten minutes past four pm, what time is it in 20 minutes?", "the answer is 4:30 pm"),
    ("It's seven o'clock in the morning, what time will it be in 5 hours?", "the answer is noon"),
    # from the time it is to another
    ("If it's half past seven, how many minutes until eight?", "the answer is 30 minutes"),
    ("How long until eight if it's half past seven?", "the answer is 30 minutes"),
    ("If it's 3 pm, how many hours until midnight?", "the answer is 9 hours"),
    ("If it's 9 am, how long until 5 pm?", "the answer is 8 hours"),
    ("If it's 3:40, how long until 5?", "the answer is 1 hour and 20 minutes"),
])  # fmt: skip
def test_a_day_or_time_counted_from_one_given_is_worked_out(question: str, answer: str) -> None:
    assert day_or_time(question) == f"Worked out: {answer}."


@pytest.mark.parametrize("question", [
    "What day is it today?", "What day is it in three days?", "What time is it?", "What time is it in Tokyo?",
    "What month comes after March?", "What month is it?", "What month is six months from now?",  # the model's; the clock's
    "If it's half to nine, what time will it be in an hour?", "What time is it 2 hours after ten after six?",  # no clock time
    "How many minutes until dinner if it's 6 pm?", "If it's 5 pm, how long until the weekend?", "How long until eight?",
    "What day of the month is it?", "What day is Christmas?", "What day of the week is February 30, 2024?",
    "What day of the week was March 3, 1200?",  # before the Gregorian calendar
    "How many days from March 1 to my birthday?", "What time will it be in a few hours if it's 3 pm?",
    "If it's 25:00, what time will it be in 2 hours?", "If it's 13 pm, what time is it in an hour?",
    "What is the capital of France?", "Is today Monday?", "When did the war end?",
    "The shop opens at 9 am. How long is it open if it closes at 5 pm?", "I got up at 7 and worked for hours. When did I stop?",
    "If the bus leaves at 5 pm or at 6 pm and takes an hour, when does it arrive?",  # which one
    "I work at home and eat at noon, how long?", "I arrived at the station and left at the end, how long was I there?",
    # another time than the one counted to
    "If I need to be there at 9 am and it takes 45 minutes to drive, when should I leave?",
    "If I wake up at 7 am and I need 8 hours of sleep, when should I go to bed?",
    "What time should I leave if my flight is at 8 am and I need to be there 2 hours before?",
    "When I got to the airport at 6 am, my flight was delayed 3 hours. Can I get compensation?",
    "What time should I go to bed if it's 10 pm and I have to get up in 8 hours?",
    "What time should I take my next dose? It's 3 pm and I took one 4 hours ago.",
    "If it is December 20 tomorrow, how many days until Christmas?", "It's December 20 next week. How many days until Christmas?",
    "In 3 days it's December 20. How many days until Christmas?", "My exam, it's December 20. How many days until Christmas?",
    "Today is June 1. How many days until my birthday?",  # its date not given
    "My birthday is March 3 and hers is March 9. If today is March 1, how many days until her birthday?",
    "What time is the meeting after lunch?",
    "What time is 2 hours before my 9 am flight? It's 5 am now.",  # a while from an event, not from the time it is
    "What time is 3 hours after lunch? It is 9 am.", "What time is 3 hours after 10 pm, then 20 minutes more?",
    "Today is March 10. My exam is March 3. How many days until my exam?",  # past: not next year's
    "Today is March 1, 2025. My wedding is March 3, 2027. How many days until my wedding?",
    "The party is June 5 but we moved it to June 8. Today is June 1. How many days until the party?",
    "It's December 20. How many days until Christmas, including today?",
    # a while of something else than what starts
    "My commute is 45 minutes and work starts at 9. What time do I finish?",
    "Each episode is 45 minutes. If I start watching at 8 pm, when will I finish 3 episodes?",
    "The drive is 20 minutes long. The game starts at 7 pm. When will it be over?",
    "I've been waiting for an hour. The show starts at 8 pm. What time will it be over?",
    "The oven needs 10 minutes to preheat. If I put the cake in at 3 pm, when will it be ready?",
    "The first half is 45 minutes. If the match starts at 3 pm, when does it end?",
    "How many days until Christmas?", "It's 5 pm. How many days until Christmas?",  # no date given: the clock's is not the user's
    "Today is March 3rd, how many days till my birthday on the 10th?", "It's Monday. How many days until Friday?",
])  # fmt: skip
def test_other_questions_get_no_day_or_time(question: str) -> None:
    assert day_or_time(question) is None


def test_a_counted_day_asks_no_clock_and_goes_beside_the_question() -> None:
    question = "What day of the week was July 4, 1776?"
    assert not CLOCK_NOTE.finds(question)  # "Sorry, I can't check the date or time from here." was the reply
    assert not CLOCK_NOTE.finds("What day of the week will it be in 3 days if today is Monday?")
    assert CLOCK_NOTE.finds("What day of the week will it be in 3 days?")  # counted from a day only the clock knows
    hinted = with_conversion_hint([{"role": "user", "content": question}])[-1]["content"]
    assert hinted == f"{question}\n\n(Worked out: July 4, 1776 was a Thursday.)"
    assert without_conversion_hint(hinted) == question


def test_long_text_costs_next_to_nothing() -> None:
    started = time.perf_counter()
    for text in ["If today is Monday, what day is it in " + "three " * 3000 + "days?",
                 "How many days from " + "March 1 " * 2000 + "to April 15?", "What time " + "is it " * 5000 + "in 5 hours?"]:
        assert day_or_time(text) is None
    assert time.perf_counter() - started < 1.0
