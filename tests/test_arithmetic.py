"""The answer to a sum said aloud (app.answers.arithmetic), and its place beside the question."""

from __future__ import annotations

import pytest

from app.answers.arithmetic import GOES_ON, sum_goes_on, worked_out
from app.answers.conversions import with_conversion_hint, without_conversion_hint


@pytest.mark.parametrize(("question", "said"), [
    ("What's 23 times 47?", "Worked out: the answer is 1,081."),
    ("What is 12.5 times 8?", "Worked out: the answer is 100."),
    ("What's 1234 plus 5678?", "Worked out: the answer is 6,912."),
    ("what is 20+22", "Worked out: the answer is 42."),
    ("What's 100 - 37?", "Worked out: the answer is 63."),
    ("What's minus 15 plus 3?", "Worked out: the answer is minus 12."),
    ("What is 100 divided by 8?", "Worked out: the answer is 12.5."),
    ("What's 100 divided by 3?", "Worked out: the answer is about 33.33."),
    ("What is 20 plus 3 times 4?", "Worked out: the answer is 32."),  # times before plus
    ("How much is 15 percent of 80?", "Worked out: the answer is 12."),
    ("What's 10% of 50?", "Worked out: the answer is 5."),
    ("What's 2 to the power of 10?", "Worked out: the answer is 1,024."),
    ("What's 2 ^ 8?", "Worked out: the answer is 256."),
    ("What is fifteen squared?", "Worked out: the answer is two hundred twenty-five."),
    ("What's 3 cubed?", "Worked out: the answer is 27."),
    ("What's the square root of 225?", "Worked out: the answer is 15."),
    ("What's the square root of 2?", "Worked out: the answer is about 1.41."),
    ("What's 1000000 divided by 7?", "Worked out: the answer is about 142,857.14."),  # no "1.429e+05"
    ("What's 1 divided by 7?", "Worked out: the answer is about 0.1429."),
    ("What is nineteen hundred plus 5?", "Worked out: the answer is 1,905."),
    ("What's the cube root of 27?", "Worked out: the answer is 3."),
    ("What's half of 250?", "Worked out: the answer is 125."),
    ("What's double 36?", "Worked out: the answer is 72."),
    ("What's twenty-five times four?", "Worked out: the answer is one hundred."),  # in words, as asked
    ("What's a hundred divided by four?", "Worked out: the answer is twenty-five."),
    ("What is one thousand two hundred and five minus five?",
     "Worked out: the answer is one thousand two hundred."),
    ("What does 17 times 8 equal?", "Worked out: the answer is 136."),
    ("Can you work out 45 divided by 4, please?", "Worked out: the answer is 11.25."),
    ("Which is bigger, 0.9 or 0.11?", "0.9 is bigger than 0.11."),
    ("Which is smaller, 0.5 or 0.45?", "0.45 is smaller than 0.5."),
    ("Is nine bigger than eleven?", "eleven is bigger than nine."),
    ("Which is bigger, 0.5 or 0.50?", "0.5 and 0.50 are equal."),
    ("Is 21 a prime number?", "21 is not a prime number: 3 times 7 = 21."),
    ("Is 17 prime?", "17 is a prime number."),
    ("Is 1 a prime number?", "1 is not a prime number."),
    ("Is seven an odd number?", "seven is odd."),
    ("Is 9 a square number?", "9 is a square number: 3 times 3."),
    ("Is 10 a perfect square?", "10 is not a square number."),
    ("Is 2028 a leap year?", "2028 is a leap year."),
    ("Is 1900 a leap year?", "1900 is not a leap year: a century year is one only when it divides by 400."),
    ("What's 6 times 2 minus 4?", "Worked out: the answer is 8."),  # two operations: the model said 4
    ("What is 2 plus 3 times 4?", "Worked out: the answer is 14."),
    # fractions in words, said back in words ("One half plus one third is 1.5.")
    ("What is half of three quarters?", "Worked out: the answer is three eighths, or 0.375."),
    ("What is a quarter of three quarters?", "Worked out: the answer is three sixteenths, or 0.1875."),
    ("What is one half plus one third?", "Worked out: the answer is five sixths, or about 0.8333."),
    ("What is a quarter plus a half?", "Worked out: the answer is three quarters, or 0.75."),
    ("What's half of a half?", "Worked out: the answer is one quarter, or 0.25."),
    ("What's three quarters plus three quarters?", "Worked out: the answer is one and a half, or 1.5."),
    ("What's three-quarters of 80?", "Worked out: the answer is 60."),
    ("What's two thirds of 60?", "Worked out: the answer is 40."),
    ("What's two and a half times 4?", "Worked out: the answer is 10."),
    ("What's a half plus a half?", "Worked out: the answer is one."),
    ("What's an eighth minus a sixteenth?", "Worked out: the answer is one sixteenth, or 0.0625."),
    ("Put these in order from smallest to largest: 9, 2, 7, 4.",  # "4, 2, 7, 9"
     "Worked out: the answer is 2, 4, 7, 9, from smallest to largest."),
    ("Sort 5, 3, 8 and 1 from biggest to smallest.", "Worked out: the answer is 8, 5, 3, 1, from largest to smallest."),
    ("Put these numbers in order: 12, 3.5, 7, minus 2",
     "Worked out: the answer is minus 2, 3.5, 7, 12, from smallest to largest."),
    ("Sort these in descending order: 4, 9, 1", "Worked out: the answer is 9, 4, 1, from largest to smallest."),
    ("Can you sort these from largest to smallest: 4, 19, 11, 7?",
     "Worked out: the answer is 19, 11, 7, 4, from largest to smallest."),
    ("Put 9, 2 in order, please.", "Worked out: the answer is 2, 9, from smallest to largest."),
    ("If a price goes from 50 to 60 dollars, what's the percentage increase?",  # "A 10% increase"
     "Worked out: the answer is an increase of 20 percent, from 50 to 60."),
    ("What is the percentage change from 80 to 60?", "Worked out: the answer is a decrease of 25 percent, from 80 to 60."),
    ("My rent went from 1,000 to 1,150 dollars. By what percent did it go up?",
     "Worked out: the answer is an increase of 15 percent, from 1,000 to 1,150."),
    ("What percent is 15 of 60?", "Worked out: the answer is 25 percent: 15 of 60."),
    ("15 is what percent of 60?", "Worked out: the answer is 25 percent: 15 of 60."),
    ("What percentage of 80 is 20?", "Worked out: the answer is 25 percent: 20 of 80."),
    ("I baked 24 cookies and ate a third of them. How many are left?",  # "8"
     "Worked out: the answer is 16: a third of 24 is 8, and 24 - 8 = 16."),
    ("There were 40 sweets and the kids ate 25% of them. How many are left?",
     "Worked out: the answer is 30: 25% of 40 is 10, and 40 - 10 = 30."),
    ("I had twelve eggs and used half of them. How many are left?",
     "Worked out: the answer is 6: half of 12 is 6, and 12 - 6 = 6."),
])  # fmt: skip
def test_a_sum_said_aloud_is_worked_out(question: str, said: str) -> None:
    assert worked_out(question) == said


@pytest.mark.parametrize("question", [
    "What is 9/11?", "What's 24/7?", "What's 50-50?",  # a date or a phrase, not a sum
    "What's 5 times the number of legs on a spider?", "What's 7?", "What's 50%?", "What time is it?",
    "What is the capital of France?", "What's 5 divided by 0?", "What's 2 to the power of 1000?",
    "What's 7 times 8 in binary?", "Is it a prime time show?", "Which is bigger, a cat or a dog?",
    "I'm 35 plus change.", "What's the square root of minus 4?", "What is 3 point 5 times 2?",
    "What's one twenty plus 5?", "What is nineteen eighty four plus 10?", "What's five and five times two?",  # not numbers
    "What's 50 minus 20%?", "What's 2 ^ 3 ^ 2?",  # said either way
    "What is 0.000001 times 0.5?",  # too small to say as a figure
    "What's a half?", "What's three quarters?", "What's a quarter to nine?", "What is half past seven?",  # no sum
    "What's three quarters of an hour?", "What's a quarter of the way?", "What's half and half?",
    "Sort my emails.", "List 3 fruits.", "Put 9 in order.", "Order 2 pizzas and 3 drinks.", "Order 2 and 3.",
    "I baked 10 cookies and ate a third of them. How many are left?",  # no whole third
    "I had 12 eggs and used half of them, then bought 6 more. How many are left?", "I baked 24 cookies and ate a third of them.",
    "I baked 24 cookies and ate a third of them. Then my dog ate four. How many are left?",  # more taken after
    "I had 12 apples and ate half of them, and my brother ate a third of the rest. How many are left?",
    "I have 4 bags of 12 apples and gave away half of them. How many are left?",  # which "them"
    "I had 12 apples and 8 oranges and ate half of them. How many fruits are left?",
    "I have 20 chickens and sold a quarter of them. How many legs are left?",  # another thing asked
    "I have 24 cookies and eat a third of them a day. How many are left after a week?",
    "What percent of people like cats?", "What percent is 5 of 0?", "What's the percentage change from 5 to 5?",
    "It went from 500 thousand to 2 million. What's the percentage increase?",  # scales and units the pattern cannot read
    "The price went from 50 cents to 2 dollars, what's the percentage increase?",
    "It went from 4 hours to 90 minutes, what's the percentage decrease?",
    "Prices went from 50 to 60 dollars, then from 60 to 75. What's the percentage increase?",
    "Interest rates went from 3 percent to 4 percent. What's the percentage increase?",  # a point or a third
    "What's the percentage difference from 50 to 60?",
])  # fmt: skip
def test_other_questions_get_nothing_worked_out(question: str) -> None:
    assert worked_out(question) is None


@pytest.mark.parametrize("question", ["What is two plus two?", "What is 6 times 7?", "What is five times five?",
                                      "What's 12 divided by 4?", "What's 9 minus 3?"])
def test_a_times_table_sum_gets_nothing_the_model_says_it_right(question: str) -> None:
    assert worked_out(question) is None


def test_the_answer_goes_beside_the_question_and_the_conversation_keeps_the_users_words() -> None:
    question = "What's 23 times 47?"
    hinted = with_conversion_hint([{"role": "user", "content": question}])[-1]["content"]
    assert hinted == f"{question}\n\n(Worked out: the answer is 1,081.)"
    assert without_conversion_hint(hinted) == question
    assert with_conversion_hint([{"role": "user", "content": hinted}])[-1]["content"] == hinted  # once


@pytest.mark.parametrize(("said", "in_full"), [
    (["What's seven times eight?", "Now divide that by four."], ("fifty-six divided by four", "fourteen")),
    (["What's seven times eight?", "Divide it by 8."], ("56 divided by 8", "7")),
    (["What's seven times eight?", "And times two?"], ("fifty-six times two", "one hundred twelve")),
    (["What's seven times eight?", "Add 10 to that."], ("56 plus 10", "66")),
    (["What's seven times eight?", "What's half of that?"], ("half of fifty-six", "twenty-eight")),
    (["What's seven times eight?", "Minus 6?"], ("56 minus 6", "50")),
    (["What's seven times eight?", "Double it."], ("double fifty-six", "one hundred twelve")),
    (["What's seven times eight?", "Take away 16, please."], ("56 minus 16", "40")),
    (["What is 15 percent of 200?", "Now times that by 3."], ("30 times 3", "90")),
    (["What's 23 times 47?", "Subtract 81 from that."], ("1,081 minus 81", "1,000")),
    (["What is 12 times 12?", "What's the square root of that?"], ("the square root of one hundred forty-four", "twelve")),
    (["What's 3 times 4?", "Subtract 20."], ("12 minus 20", "minus 8")),
    (["What's 12 times 12?", "Divide that by 3.", "Now add 2."], ("48 plus 2", "50")),  # on from one that went on
    (["What's 6 times 7?", "What's 2 plus 3?", "Square it."], ("five squared", "twenty-five")),
    (["What's seven times eight?", "Multiply that by a half."], ("fifty-six times a half", "twenty-eight")),
    (["What's seven times eight?", "Times A half?"], ("fifty-six times A half", "twenty-eight")),  # no "A" read as it
    (["What's seven times eight?", "Halve it."], ("half of fifty-six", "twenty-eight")),
])  # fmt: skip
def test_a_sum_that_goes_on_from_the_last_answer_is_worked_out_in_full(said: list[str], in_full: tuple[str, str]) -> None:
    assert sum_goes_on(said) == in_full


@pytest.mark.parametrize("said", [
    ["How do I make pancakes?", "Double it."],  # no sum before
    ["What's 6 times 7?", "What's the capital of France?", "Double it."],  # a question between
    ["What is 10 divided by 3?", "Times 3?"],  # an answer with no exact figure to say
    ["What is 100 minus 1?", "What is it?"], ["What's 9 times 9?", "Is that right?"],
    ["What is 6 times 7?", "What's that in binary?"], ["What's 2 plus 2?", "Add milk."], ["Divide that by four."],
    ["What's seven times eight?", "Subtract 10 plus 5 from that."],  # more than a number: no grouping to guess
    ["What's seven times eight?", "Divide that by 2 times 4."], ["What's seven times eight?", "Plus one!"],  # agreed
    ["What's seven times eight?", "Over 9000!"], ["What's seven times eight?", "Is that right?"],
])  # fmt: skip
def test_other_messages_after_a_sum_get_nothing_worked_out(said: list[str]) -> None:
    assert sum_goes_on(said) is None


def test_a_long_or_huge_sum_gets_nothing_and_costs_next_to_nothing() -> None:
    """Typed text may be thousands of words: no deep recursion, no number of millions of digits."""
    import time

    started = time.perf_counter()
    for question in ["What's " + "1 plus " * 2000 + "1?", "Is " + "one " * 4000 + "prime?", "What is " + "9 " * 3000,
                     "What's " + "the square root of " * 1000 + "4?", "What's 2 " + "squared " * 20 + "?",
                     "What's 9 " + "to the power of 9 " * 5 + "?", "Which is bigger, " + "one " * 4000 + "or two?",
                     "What's " + "9" * 5000 + " plus 1?", "Is " + "9" * 5000 + " a prime number?",
                     "What's the square root of " + "9" * 400 + "?", "What's 1" + "?" * 20000 + "x"]:
        assert worked_out(question) is None
        assert sum_goes_on(["What's 2 times 3?", question]) is None and sum_goes_on([question, "Double it."]) is None
    assert sum_goes_on(["What's 2 times 3?", "Add " + "1 plus " * 2000 + "that."]) is None
    assert sum_goes_on(["What's 2 times 3?", "And then " * 22 + "what's half of that?"]) is None  # past 200 characters
    assert GOES_ON.search("and then " * 30 + "hello") is None  # no lead read two ways
    assert time.perf_counter() - started < 1.0
