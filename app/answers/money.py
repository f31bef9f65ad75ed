"""Change, money left and money saved, worked out and written into the question for the model.

The 1.5B does a sum said as one ("What is 20 minus 13.50?") and gets the same sum told as a purchase wrong: "I paid
with a 20 dollar note for something that cost 13 dollars 50. How much change should I get?" -> "7 dollars 50" (3 of
4 runs), "I have 100 dollars and spend 35 on groceries and 20 on gas. How much is left?" -> "25", "If I save 50
dollars a week, how much will I have after a year?" -> "1,200", "1,825" (docs/benchmarks.md, "Ages and years,
rhymes"). As a sum gets its answer (``app.answers.arithmetic``), these three stories get
theirs beside them: the change from a payment, what is left of an amount after what was spent, and what a regular
saving comes to. Money must be said as money ("$20", "20 dollars", "13 dollars 50", "£5", "50 cents"); a story of
something else ("I have 10 apples and eat 3") gets nothing here. The model repeats a figure beside it, so a wrong one
is worse than none: a story with anything these do not count (a number that is no amount of it, a price a piece,
money coming in, a share, a number said as a word, how often said twice) gets nothing either.
"""

from __future__ import annotations

import re
from fractions import Fraction

from app.answers.arithmetic import NUMBER_WORDS
from app.answers.days import count_of
from app.answers.wording import SHORT_ANSWER, plain

_LONGEST = 200  # characters: such a question is short, and longer text costs the patterns more
_CURRENCIES = {"$": "dollars", "£": "pounds", "€": "euros", "dollar": "dollars", "buck": "dollars", "pound": "pounds",
               "quid": "pounds", "euro": "euros"}  # fmt: skip
_FIGURE = r"\d{1,7}(?:,\d{3})*(?:\.\d{1,2})?"
_MONEY = re.compile(
    rf"(?P<symbol>[$£€]) ?(?P<amount>{_FIGURE})"
    rf"|(?P<amount_said>{_FIGURE}) ?(?P<name>dollars?|bucks?|pounds?|quid|euros?)\b(?:,? (?:and )?(?P<cents>\d{{1,2}})\b"
    r"(?! ?(?:dollars?|pounds?|euros?|percent|%))(?: cents| pence| p\b)?)?"
    r"|(?P<cents_only>\d{1,2}) (?:cents|pence)\b",
    re.I,
)
# a story these do not count right, so none is better than a wrong figure: weight ("5 pounds of apples", "lost 3
# pounds"), a price a piece ("3 tickets at $12 each"), a share ("a 15% tip"), money coming in ("sold my phone for
# $40", "a $20 refund"), a decimal comma ("13,50"), or how often said another way ("every other week", "twice a week")
_NOT_COUNTED = re.compile(
    r"\b\d+ ?pounds? (?:of|in weight|heavier|lighter)\b|\bweigh|\b(?:lost|gained|put on) \d+ pounds?\b|\bkilo|\bkg\b"
    r"|\beach\b|\bper (?:item|piece|person|ticket|one)\b|\bapiece\b|\ba piece\b|%|\bpercent|\binterest\b|\btax\b|\btip\b"
    r"|\bdiscount|\boff\b|\bsold\b|\bsell|\brefund"
    r"|\b(?:got|get|gets|getting|received?|earned|won|found|made) (?:paid|back|\$|£|€|\d)"
    r"|\bgives? me\b|\bgave me\b|\bpaid me\b|\bpays me\b|\bback\b|\bbirthday\b|\bsalary\b|\bowe"
    r"|\d,\d{1,2}\b|\bother\b|\btwice\b|\btimes\b|\bhours?\b|\band a half\b",
    re.I,
)
_A_NUMBER = re.compile(r"\d[\d,.]*\d|\d")
_NUMBER_WORD = re.compile(rf"\b(?:{'|'.join(word for word in NUMBER_WORDS if ' ' not in word and word != 'one')})\b", re.I)
# the change from a payment: "I paid with a $20 bill for something that cost $13.50. How much change do I get?"
_CHANGE = re.compile(
    r"\bhow much change\b|\bwhat(?:'s| is) (?:my|the) change\b|\bchange (?:should|will|do|would) i (?:get|receive)\b", re.I
)
_PAID = re.compile(r"\b(?:paid|pay|paying|gave|give|giving|hand(?:ed)?|used?|with)\b", re.I)
_COST = re.compile(r"\b(?:costs?|costing|priced|comes? to|came to|was|is|for|bill (?:is|was|of))\b", re.I)
# what is left: "I have $100 and spend $35 on groceries and $20 on gas. How much is left?"
_HAD = re.compile(r"\b(?:have|had|has|got|with|start(?:ed)? with|there(?:'s| is| was))\b(?: (?:only|just|about))?\s*$", re.I)
_LEFT = re.compile(
    r"\bhow much (?:money )?(?:is|do i have|will i have|have i got|would i have|does (?:she|he|they) have|is there)?"
    r" ?(?:left|remaining|left over)\b|\bhow much remains\b",
    re.I,
)
# an amount, not "2 shirts": what follows it is money's name (and its cents) and what it went on, or the clause's end
_THEN = r"(?= ?(?:(?:dollars?|bucks|pounds|quid|euros?)(?:,? (?:and )?\d{1,2}\b)?|cents)?\s*(?:on|for|at|and\b|[.,;!?]|$))"
_SPENT = re.compile(
    rf"\b(?:spen[dt]|spending|bought|buy|buying|paid|pay|paying|used?|lost|lose|gave away)\b(?: (?:another|a further))?"
    rf" (?:[$£€] ?(?P<amount>{_FIGURE})\b{_THEN}"
    rf"|(?P<amount_bare>{_FIGURE})\b(?= ?(?:dollars?|bucks|pounds|quid|euros?|cents)\b| on\b))"  # not "bought 2 for $30"
    rf"|\b(?:and|then|plus|,) (?:another |a further )?(?:[$£€] ?)?(?P<more>{_FIGURE})\b(?= ?(?:[a-z]+ )?(?:on|for|at)\b)"
    rf"|\b(?:for|costing) (?:[$£€] ?)?(?P<price>{_FIGURE})\b{_THEN}",  # "bought a book for $12"
    re.I,
)
# a saving: "If I save 50 dollars a week, how much will I have after a year?"
_IN = {"day": {"day": 1, "week": 7, "year": 365}, "week": {"week": 1, "year": 52}, "month": {"month": 1, "year": 12},
       "year": {"year": 1}}  # fmt: skip
_SAVE = re.compile(
    r"\b(?:save|saving|saved|put (?:away|aside)|set aside|put in|deposit|earn|earning|make|making) "
    r"(?P<money>(?:[$£€] ?\d[\d,.]*|\d[\d,.]* ?(?:dollars?|bucks|pounds|quid|euros?)))"
    r" (?:a|an|per|each|every) (?P<every>day|week|month|year)\b",
    re.I,
)
_FOR = re.compile(
    r"\b(?:after|in|for|over|within) (?P<count>\d{1,3}|an?|one|two|three|four|five|six|seven|eight|nine|ten|twelve) "
    r"(?P<unit>days?|weeks?|months?|years?)\b",
    re.I,
)


# the price of some things from the price of others: "If 3 apples cost 1.50 dollars, how much do 7 apples cost?" (the
# model set up a proportion at length and was cut before its answer)
_PRICE_SCALED = re.compile(
    rf"^(?:if |say )?(?P<n>\d{{1,4}}) (?P<things>[a-z]+(?: [a-z]+)?) costs? (?P<price>[$£€] ?{_FIGURE}|{_FIGURE} ?[a-z]+)[,.;]?"
    r" (?:then |so )?how much (?:do|does|would|will|should|is|are) (?P<m>\d{1,4})(?: (?P<things2>[a-z]+(?: (?!cost\b)[a-z]+)?))?"
    r"(?: cost)?[?.!]*$",
    re.I,
)


# a share of an amount of money: a tip, a tax, a discount or a plain percentage ("What is a 20% tip on 60 dollars?",
# "A 50 dollar jacket is 30 percent off. What's the sale price?", "What is 20 percent of 45 dollars?"), which the
# model got wrong or did not work out ("Calculate an 18% tip on 72 dollars." -> "13.68 dollars"; docs/benchmarks.md,
# "Said, not promised"). A tip asked for without its share gets the usual ones where the amount is in dollars (15 to 20 percent);
# a total split evenly between people ("How much is that each for three people?"), each one's part.
_PERCENT = re.compile(r"(?P<percent>\d{1,3}(?:\.\d{1,2})?) ?(?:%|percent\b|per cent\b)", re.I)
_TIP = re.compile(  # "leave 20 percent" of a bill is a tip; of a pizza, not
    r"\b(?:tip|tips|tipping|gratuity)\b|\bleav(?:e|ing) (?:an? )?\d{1,3}(?:\.\d{1,2})? ?(?:%|percent\b)(?! of\b)", re.I
)
_TAX = re.compile(r"\b(?:tax|vat|sales tax)\b", re.I)
_OFF = re.compile(r"\b(?:off|discount|discounted|reduced|marked down|markdown)\b", re.I)
_OF = re.compile(r" of (?:a |an |the |my |our )?", re.I)  # "20 percent of 45 dollars", "15% of the $80"
_HOW_MUCH_TIP = re.compile(
    r"\bhow much (?:should|do|would|shall|must|to) (?:i |we |you )?(?:tip|leave)\b|\bhow much (?:of a |is a |for a )?tip\b"
    r"|\b(?:good|usual|normal|standard|fair|typical|decent|right|proper) tip\b|\bwhat (?:should|do) (?:i|we) tip\b",
    re.I,
)
# a story about something else, whose share these would take wrongly: interest, a raise, a change over time
_NOT_A_SHARE = re.compile(
    r"\b(?:interest|raise|increase|increased|decrease|decreased|grow|grows|grew|growth|commission|profit|loss|invest\w*"
    r"|salary|every|year|years|month|months|week|weeks|deposit|loan|compound)\b",
    re.I,
)
# the total with a tip or tax split evenly: "... How much is that each for three people?", "split between 4 of us"
_PEOPLE = re.compile(r"\b(?P<people>[2-9]|1[0-9]|20|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
                     r" (?:people|persons|ways|of us|friends|guests|diners)\b", re.I)
_SPLIT = re.compile(r"\b(?:each|split|splitting|divide|divided|share|shared|sharing|per person|apiece|between|among)\b", re.I)
_SHARE_IN_MONEY = re.compile(r" ?(?:off|tip|tax|discount)\b", re.I)
_USUAL_TIPS = (15, 20)  # percent: a tip in the United States, where a bill is in dollars


def share_of_money(text: str) -> str | None:
    """A tip, tax, discount or percentage of an amount of money ``text`` asks for, as "Worked out: a 20 percent tip on
    60 dollars is 12 dollars, 72 dollars in all." (with each one's part where it is split between people); else None."""
    if len(text) > _LONGEST or _NOT_A_SHARE.search(text):
        return None
    text = plain(text)
    people = list(_PEOPLE.finditer(text))
    if len(people) > 1 or bool(people) != bool(_SPLIT.search(text)):
        return None  # "each" or "split" without how many, or people with no split: another story
    if _NUMBER_WORD.search(text[: people[0].start()] + text[people[0].end() :] if people else text):
        return None
    amounts, percents = list(_MONEY.finditer(text)), list(_PERCENT.finditer(text))
    if len(amounts) != 1 or len(percents) > 1 or (currency := _currency(amounts[0])) is None:
        return None
    if _uncounted(text, [amounts[0].span(), *(found.span() for found in percents), *(found.span() for found in people)]):
        return None  # "a 20% tip on 2 meals at $30": another number
    if _SHARE_IN_MONEY.match(text, amounts[0].end()):
        return None  # "Is 20 percent off better than $10 off?": the amount is the share
    amount = _value(amounts[0])
    said = _said(amount, currency)
    if not percents:
        if people or not (_TIP.search(text) and _HOW_MUCH_TIP.search(text)) or currency != "dollars":
            return None
        low, high = (amount * share / 100 for share in _USUAL_TIPS)
        return (f"Worked out: a tip of {_USUAL_TIPS[0]} to {_USUAL_TIPS[1]} percent is usual in the United States; on "
                f"{said} that is {_said(low, currency)} to {_said(high, currency)}.")
    percent = Fraction(percents[0]["percent"])
    share = _to_cent(amount * percent / 100)
    kinds = [kind for kind in (_TIP, _TAX, _OFF) if kind.search(text)]
    said_percent = f"{percents[0]['percent']} percent"
    in_all = f"{_said(amount + share, currency)} in all"
    if people:
        if kinds not in ([_TIP], [_TAX]):
            return None  # a discount or a plain share, split: no story these count
        count = count_of(people[0]["people"])
        in_all += f", {_said(_to_cent((amount + share) / count), currency)} each for {count} people"
    if kinds == [_TIP]:
        article = "an" if percents[0]["percent"].startswith("8") or percents[0]["percent"].split(".")[0] in ("11", "18") else "a"
        return f"Worked out: {article} {said_percent} tip on {said} is {_said(share, currency)}, {in_all}."
    if kinds == [_TAX]:
        return f"Worked out: {said_percent} tax on {said} is {_said(share, currency)}, {in_all}."
    if kinds == [_OFF]:
        return (f"Worked out: {said_percent} off {said} is {_said(share, currency)} off, a price of "
                f"{_said(amount - share, currency)}.")
    if not kinds and _OF.fullmatch(text, percents[0].end(), amounts[0].start()):
        return f"Worked out: {said_percent} of {said} is {_said(share, currency)}."
    return None


def _to_cent(value: Fraction) -> Fraction:
    """``value`` rounded to the cent, as it is paid."""
    return Fraction(round(value * 100), 100)


def price_scaled(text: str) -> str | None:
    """The price of some things from the price of a number of the same things, as "Worked out: the answer is 3.50
    dollars: 1.50 dollars for 3 is 0.50 dollars each, and 7 cost 3.50 dollars."; else None."""
    found = _PRICE_SCALED.match(plain(text))
    if found is None or (found["things2"] and found["things2"].lower() != found["things"].lower()):
        return None  # "If 3 apples cost 1.50 dollars, how much do 7 pears cost?"
    price = _MONEY.fullmatch(found["price"])
    if price is None or (currency := _currency(price)) is None or not (n := int(found["n"])) or not (m := int(found["m"])):
        return None
    paid = _value(price)
    each = paid / n
    if (each * 100).denominator != 1:  # "3 for 1 dollar": a third of a cent each, said either way
        return None
    total = each * m
    return (f"Worked out: the answer is {_said(total, currency)}: {_said(paid, currency)} for {n} is "
            f"{_said(each, currency)} each, and {m} cost {_said(total, currency)}. {SHORT_ANSWER}")


def money_counted(text: str) -> str | None:
    """The change, the money left or the money saved ``text`` asks for, as "Worked out: the change is 6.50 dollars:
    20 dollars paid for 13.50 dollars."; else None."""
    if len(text) > _LONGEST or not re.search(r"\d", text) or _NOT_COUNTED.search(text) or _NUMBER_WORD.search(text):
        return None  # "spend twenty on food": a number said as a word is not counted here, so no story is
    text = plain(text)
    amounts = [(found, _value(found)) for found in _MONEY.finditer(text)]
    currencies = {_currency(found) for found, _ in amounts if _currency(found)}
    if not amounts or len(currencies) > 1:  # "I paid 20 euros for 15 dollars": another sum
        return None
    currency = currencies.pop() if currencies else "cents"
    answer = _change(text, amounts, currency) or _left(text, amounts, currency) or _saved(text, amounts, currency)
    return f"Worked out: {answer}." if answer else None


def _change(text: str, amounts: list[tuple[re.Match[str], Fraction]], currency: str) -> str | None:
    if not _CHANGE.search(text) or len(amounts) != 2 or _uncounted(text, [found.span() for found, _ in amounts]):
        return None  # "I paid $20 for 2 $5 items": a number beside the two amounts
    (first, first_value), (second, second_value) = amounts
    before_first, between = text[: first.start()], text[first.end() : second.start()]
    if _PAID.search(before_first) and _COST.search(between):
        paid, cost = first_value, second_value  # "I paid $20 for something that cost $13.50"
    elif _COST.search(before_first) and _PAID.search(between):
        paid, cost = second_value, first_value  # "It cost $13.50 and I paid with $20"
    else:
        return None
    if paid < cost:
        return None
    return f"the change is {_said(paid - cost, currency)}: {_said(paid, currency)} paid for {_said(cost, currency)}"


def _left(text: str, amounts: list[tuple[re.Match[str], Fraction]], currency: str) -> str | None:
    if not _LEFT.search(text) or _CHANGE.search(text):
        return None
    start, start_value = amounts[0]
    if not _HAD.search(text[max(0, start.start() - 24) : start.start()]):  # "A game costs $60. I have $100 ...": not had
        return None
    spending = [_spent(text, found) for found in _SPENT.finditer(text, start.end())]
    if not spending or _uncounted(text, [start.span(), *(span for span, _ in spending)]):
        return None  # "... bought 2 for $30": a number that is no amount spent
    spent = [value for _, value in spending]
    left = start_value - sum(spent)
    if left < 0:
        return None
    return (f"{_said(left, currency)} is left: {_said(start_value, currency)} less "
            f"{' and '.join(_said(value, currency) for value in spent)}")


def _saved(text: str, amounts: list[tuple[re.Match[str], Fraction]], currency: str) -> str | None:
    saving, span = _SAVE.search(text), _FOR.search(text)
    if saving is None or span is None or len(amounts) != 1 or not saving.start() <= amounts[0][0].start() < saving.end():
        return None
    if len(_A_NUMBER.findall(text)) != 1 + span["count"].isdigit():  # "$50 a day, 5 days a week": how often, said again
        return None
    every, unit = saving["every"].lower(), span["unit"].lower().rstrip("s")
    count, times = count_of(span["count"]), _IN[every].get(unit)
    if count is None or times is None:
        return None  # "50 a week for 6 months": weeks in a month are no whole number
    total = amounts[0][1] * times * count
    return (f"the answer is {_said(total, currency)}: {_said(amounts[0][1], currency)} a {every}, "
            f"{times * count} times in {count} {unit}{'' if count == 1 else 's'}")


def _uncounted(text: str, counted: list[tuple[int, int]]) -> bool:
    """Whether ``text`` has a number outside the spans ``counted``."""
    return any(not any(a <= found.start() < b for a, b in counted) for found in _A_NUMBER.finditer(text))


def _group(found: re.Match[str]) -> str:
    return next(name for name in ("amount", "amount_bare", "more", "price") if found[name])


def _spent(text: str, found: re.Match[str]) -> tuple[tuple[int, int], Fraction]:
    """Where an amount spent is said and what it is, with its cents where money's name follows it ("22 pounds 50")."""
    group = _group(found)
    money = _MONEY.match(text, found.start(group))
    return (money.span(), _value(money)) if money else (found.span(group), _number(found[group]))


def _value(found: re.Match[str]) -> Fraction:
    if found["cents_only"]:
        return Fraction(int(found["cents_only"]), 100)
    value = _number(found["amount"] or found["amount_said"])
    return value + Fraction(int(found["cents"]), 100) if found["cents"] else value


def _number(said: str) -> Fraction:
    return Fraction(said.replace(",", ""))


def _currency(found: re.Match[str]) -> str | None:
    if found["cents_only"]:
        return None
    said = (found["symbol"] or found["name"]).lower()
    return _CURRENCIES.get(said.rstrip("s") if said not in _CURRENCIES else said)


def _said(value: Fraction, currency: str) -> str:
    """``value`` as a voice says an amount: "6.50 dollars", "2,600 dollars", "45 cents"."""
    if currency == "cents":
        return f"{round(value * 100)} cents"
    figure = f"{float(value):,.2f}".removesuffix(".00")
    return f"{figure} {currency.removesuffix('s') if value == 1 else currency}"
