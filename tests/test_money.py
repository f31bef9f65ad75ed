"""Change, money left and money saved (app.answers.money), and their place beside the question."""

from __future__ import annotations

import time

import pytest

from app.answers.conversions import with_conversion_hint, without_conversion_hint
from app.answers.money import money_counted, share_of_money


@pytest.mark.parametrize(("question", "answer"), [
    ("I paid with a 20 dollar note for something that cost 13 dollars 50. How much change should I get?",
     "the change is 6.50 dollars: 20 dollars paid for 13.50 dollars"),
    ("I gave the cashier 50 dollars for a 37 dollar meal. How much change?",
     "the change is 13 dollars: 50 dollars paid for 37 dollars"),
    ("If I pay with a $20 bill for something that costs $13.50, how much change do I get?",
     "the change is 6.50 dollars: 20 dollars paid for 13.50 dollars"),
    ("It cost £7.20 and I paid with a £10 note. What's my change?", "the change is 2.80 pounds: 10 pounds paid for 7.20 pounds"),
    ("I have 100 dollars and spend 35 on groceries and 20 on gas. How much is left?",
     "45 dollars is left: 100 dollars less 35 dollars and 20 dollars"),
    ("I had $50 and bought a book for $12 and a pen for $3. How much do I have left?",
     "35 dollars is left: 50 dollars less 12 dollars and 3 dollars"),
    ("I had 60 pounds and spent 22 pounds 50 on dinner. How much is left?", "37.50 pounds is left: 60 pounds less 22.50 pounds"),
    ("If I save 50 dollars a week, how much will I have after a year?",
     "the answer is 2,600 dollars: 50 dollars a week, 52 times in 1 year"),
    ("I save $10 a day. How much will I have in 2 weeks?", "the answer is 140 dollars: 10 dollars a day, 14 times in 2 weeks"),
    ("If I save 100 euros a month, how much will I have saved in 3 years?",
     "the answer is 3,600 euros: 100 euros a month, 36 times in 3 years"),
])  # fmt: skip
def test_the_money_is_worked_out(question: str, answer: str) -> None:
    assert money_counted(question) == f"Worked out: {answer}."


@pytest.mark.parametrize("question", [
    "I have 10 apples and eat 3. How many are left?", "What is 20 minus 13.50?",  # no money; a sum (arithmetic's)
    "I have $100. How much is left?", "I have 20 dollars. I spend 25 on a game. How much is left?",  # nothing spent; too much
    "I paid 20 euros for something that cost 15 dollars. How much change?",  # two currencies
    "If I save 50 dollars a week for 6 months, how much will I have?",  # weeks in a month: no whole number
    "I bought 5 pounds of apples for $10. How much change from $20?", "If I earn 15 dollars an hour, how much in 8 hours?",
    "I paid $10 for a $20 meal. How much change?", "How much change is there in the world?",
    "I had $40 and bought 2 shirts for $15. How much is left?",  # a number beside the amounts: a price for two, or each?
    # what these do not count right: money coming in, prices a piece, shares, how often said again, an amount not had
    "I have $100 and sold my old phone for $40. How much do I have left?", "I had $100 and bought 2 for $30. How much is left?",
    "I had $100, spent $30, then got paid $50 for work. How much do I have left?",
    "I paid with a $50 bill for 3 tickets that cost $12 each. How much change do I get?",
    "If I make $20 an hour and work 40 hours a week, how much do I make in a year?",
    "If I save $50 every other week for a year, how much will I have?", "If I earn $50 a day 5 days a week, how much in a year?",
    "The meal was $40 and I left a 15% tip, paying with $50. How much change?",
    "A game costs $60. I have $100 and spend $30 on food. How much is left?",
    "I paid €20 for something that cost €13,50. How much change?",
    "I have 50 dollars and spend twenty on food and 10 on gas. How much is left?",
    "My 20 pound dog lost 3 pounds. How much is left?",
    "I have 100 pounds and spend 35 on groceries. How much is left in kilograms?",
])  # fmt: skip
def test_other_questions_get_nothing(question: str) -> None:
    assert money_counted(question) is None


def test_the_money_goes_beside_the_question_and_comes_off() -> None:
    question = "I gave the cashier 50 dollars for a 37 dollar meal. How much change?"
    hinted = with_conversion_hint([{"role": "user", "content": question}])[-1]["content"]
    assert hinted == f"{question}\n\n(Worked out: the change is 13 dollars: 50 dollars paid for 37 dollars.)"
    assert without_conversion_hint(hinted) == question


def test_long_text_costs_next_to_nothing() -> None:
    started = time.perf_counter()
    for text in ["I have $1 and spend " + "1 on a and " * 18 + "how much is left?", "$1 " * 100, "how much change " + "1 " * 90]:
        money_counted(text)
    assert time.perf_counter() - started < 1.0


@pytest.mark.parametrize(("question", "answer"), [
    ("What is a 20% tip on 60 dollars?", "a 20 percent tip on 60 dollars is 12 dollars, 72 dollars in all"),
    ("How much is a 15% tip on $45?", "a 15 percent tip on 45 dollars is 6.75 dollars, 51.75 dollars in all"),
    ("Calculate an 18% tip on 72 dollars.", "an 18 percent tip on 72 dollars is 12.96 dollars, 84.96 dollars in all"),
    ("Our bill is 80 dollars. How much is a 15 percent tip?", "a 15 percent tip on 80 dollars is 12 dollars, 92 dollars in all"),
    ("What is the tip on 100 dollars at 20 percent?", "a 20 percent tip on 100 dollars is 20 dollars, 120 dollars in all"),
    ("How much should I tip on a 45 dollar bill?",
     "a tip of 15 to 20 percent is usual in the United States; on 45 dollars that is 6.75 dollars to 9 dollars"),
    ("What would be a good tip on a 60 dollar meal?",
     "a tip of 15 to 20 percent is usual in the United States; on 60 dollars that is 9 dollars to 12 dollars"),
    ("What is 8 percent sales tax on 25 dollars?", "8 percent tax on 25 dollars is 2 dollars, 27 dollars in all"),
    ("A 50 dollar jacket is 30 percent off. What's the sale price?",
     "30 percent off 50 dollars is 15 dollars off, a price of 35 dollars"),
    ("A $25.99 shirt is 15% off. How much is it now?",  # the share to the cent
     "15 percent off 25.99 dollars is 3.90 dollars off, a price of 22.09 dollars"),
    ("What is 20 percent of 45 dollars?", "20 percent of 45 dollars is 9 dollars"),
    ("What is 12.5% of £200?", "12.5 percent of 200 pounds is 25 pounds"),
    ("The bill is 90 dollars and we want to leave 20 percent. How much is that each for three people?",
     "a 20 percent tip on 90 dollars is 18 dollars, 108 dollars in all, 36 dollars each for 3 people"),
    ("Split a $120 bill with a 20% tip between 4 people.",
     "a 20 percent tip on 120 dollars is 24 dollars, 144 dollars in all, 36 dollars each for 4 people"),
    ("We're 3 people and the bill is $100 with a 15% tip. How much each?",  # each share to the cent
     "a 15 percent tip on 100 dollars is 15 dollars, 115 dollars in all, 38.33 dollars each for 3 people"),
    ("A $60 meal with 8% tax split 2 ways?", "8 percent tax on 60 dollars is 4.80 dollars, 64.80 dollars in all, "
     "32.40 dollars each for 2 people"),
])  # fmt: skip
def test_the_share_of_money_is_worked_out(question: str, answer: str) -> None:
    assert share_of_money(question) == f"Worked out: {answer}."


@pytest.mark.parametrize("question", [
    "How much should I tip on a 30 pound meal?",  # the usual tip is the United States': dollars only
    "If I invest $1000 at 5 percent interest, how much will I have?", "My salary is $50,000 and I get a 3% raise.",
    "What is a 20% tip on two 30 dollar meals?", "What is a 20% tip on 2 meals at $30?",
    "I left a $10 tip on a $50 bill. What percent is that?", "What is 15 percent of 80?",
    "Is 20 percent off better than $10 off?",
    "What is a 20% tip and 8% tax on $50?", "The price went from $50 to $60. What is the percent increase?",
    "A $50 jacket is 20% off and then 10% off. What's the price?", "I paid $45 for dinner.",
    "Split 120 dollars between 3 people.", "How much should each of us tip on a $90 bill?",  # how many, or what share?
    "Split a $50 jacket 30% off between 2 people.", "Each of the 4 tickets costs $20 with a 10% fee. Total?",
    "A 20% tip on $60 for 3 people and 2 kids?",
])  # fmt: skip
def test_other_shares_get_nothing(question: str) -> None:
    assert share_of_money(question) is None


def test_leaving_a_share_of_something_is_no_tip() -> None:
    assert share_of_money("Leave 20 percent of the $30 pizza for later.") == "Worked out: 20 percent of 30 dollars is 6 dollars."


def test_the_tip_goes_beside_the_question_and_comes_off() -> None:
    question = "What's a 20% tip on $35?"
    hinted = with_conversion_hint([{"role": "user", "content": question}])[-1]["content"]
    assert hinted == f"{question}\n\n(Worked out: a 20 percent tip on 35 dollars is 7 dollars, 42 dollars in all.)"
    assert without_conversion_hint(hinted) == question
