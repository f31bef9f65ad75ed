"""The figure of a unit conversion, worked out and given to the model beside the question (``conversion_hints``)."""

from __future__ import annotations

import pytest
from sdk_helpers import text_replies

from app.answers.conversions import conversion, figure, with_conversion_hint, without_conversion_hint
from app.answers.notes import user_words
from app.answers.wording import SHORT_ANSWER
from app.bench.quality import matches


@pytest.mark.parametrize(("question", "figure"), [
    ("How many centimetres are in 2 metres?", "2 metres = 200 centimetres."),
    ("How many hours are in two days?", "two days = 48 hours."),
    ("How many weeks are in 2 years?", "2 years = about 104 weeks."),
    ("How many seconds are there in a day?", "a day = 86400 seconds."),
    ("how many hours in a day", "a day = 24 hours."),
    ("How many minutes in an hour and a half?", "an hour and a half = 90 minutes."),
    ("How many grams are in half a kilogram?", "half a kilogram = 500 grams."),  # as said: "0.5 kilograms" got "250"
    ("How many months are in 5 years?", "5 years = 60 months."),
    ("How many years are in a century?", "a century = 100 years."),
    ("How many feet are in a mile?", "a mile = 5280 feet."),
    ("How many inches are in 3 feet?", "3 feet = 36 inches."),
    ("How many kilometres in a mile?", "a mile = about 1.6 kilometres."),
    ("How many kilos is 10 pounds?", "10 pounds = about 4.5 kilograms."),
    ("What's 10 pounds in kilos?", "10 pounds = about 4.5 kilograms."),
    ("What is 5 km in metres?", "5 km = 5000 metres."),
    ("Convert 3 feet to inches.", "3 feet = 36 inches."),
    ("2 metres is how many centimetres?", "2 metres = 200 centimetres."),
    ("How many ounces make a pound?", "a pound = 16 ounces."),
    ("How many pounds in a stone?", "a stone = 14 pounds."),
    ("How many metres in 1,500 centimetres?", "1,500 centimetres = 15 metres."),
    ("How many mins in 2.5 hrs?", "2.5 hrs = 150 minutes."),
    ("How many millilitres are in 2 litres?", "2 litres = 2000 millilitres."),
    ("How many centimetres are in 6 inches?", "6 inches = 15.24 centimetres."),
    ("How many tablespoons are in a cup?", "a cup = 16 tablespoons."),  # "There are 8 tablespoons in a cup." every run
    ("How many tablespoons are in half a cup?", "half a cup = 8 tablespoons."),
    ("How many minutes is three quarters of an hour?", "three quarters of an hour = 45 minutes."),  # "15 minutes"
    ("How many minutes is an hour and three quarters?", "an hour and three quarters = 105 minutes."),  # not "an hour"
    ("How many months are in 2 and a half years?", "2 and a half years = 30 months."),  # "6 months"
    ("How many grams is two thirds of a kilo?", "two thirds of a kilo = about 667 grams."),
    ("How many teaspoons in 2 tbsp?", "2 tbsp = 6 teaspoons."), ("What is 4 cups in quarts?", "4 cups = 1 quart."),
    ("How many fluid ounces are in a cup?", "a cup = 8 fluid ounces."), ("How many cups in a gallon?", "a gallon = 16 cups."),
])  # fmt: skip
def test_a_conversion_is_worked_out(question: str, figure: str) -> None:
    assert conversion(question) == figure


@pytest.mark.parametrize(("question", "figure"), [
    ("Convert 100 Fahrenheit to Celsius.", "100 Fahrenheit = about 37.8 degrees Celsius."),  # read out as a formula
    ("What is 100 degrees Celsius in Fahrenheit?", "100 degrees Celsius = 212 degrees Fahrenheit."),
    ("How many degrees Fahrenheit is 20 degrees Celsius?", "20 degrees Celsius = 68 degrees Fahrenheit."),
    ("What's minus 10 Celsius in Fahrenheit?", "minus 10 Celsius = 14 degrees Fahrenheit."),  # "-18 degrees Fahrenheit"
    ("What's -40 C in F?", "-40 C = minus 40 degrees Fahrenheit."),
    ("What's 300 Kelvin in Celsius?", "300 Kelvin = 26.85 degrees Celsius."),  # "273.15 degrees Celsius"
    ("What is 0 Celsius in kelvins?", "0 Celsius = 273.15 kelvins."),
    ("If it's 5 degrees Celsius, what is that in Fahrenheit?", "5 degrees Celsius = 41 degrees Fahrenheit."),
    ("What is 98.6 F in C?", "98.6 F = 37 degrees Celsius."),
    ("What is 100°F in Celsius?", "100°F = about 37.8 degrees Celsius."),
    ("What is twenty degrees Celsius in Fahrenheit?", "twenty degrees Celsius = 68 degrees Fahrenheit."),
    ("What is 1000000 K in C?", "1000000 K = 999726.85 degrees Celsius."),  # no "1e+06" for a voice to read
    ("What is 10000000 F in C?", "10000000 F = about 5555537.8 degrees Celsius."),
])  # fmt: skip
def test_a_temperature_is_worked_out_by_its_formula(question: str, figure: str) -> None:
    assert conversion(question) == figure


@pytest.mark.parametrize("question", [
    "How many days are in a month?",  # 28 to 31: no one figure
    "How many litres are in a gallon?",  # an American or a British gallon
    "How many millilitres are in a cup?", "How many ounces are in a cup?",  # a cup's own size; weight
    "How many people are in 2 cars?", "How many minutes are in a minute?",
    "How many kilometres are in a kilogram?", "How far is 5 km?", "I ran 5 km in 30 minutes.",
    "What is 20 C in C?", "What is 5 k in miles?", "It's 30 degrees Celsius today.", "What's a C in F major?",
    "How many minutes is 2 hours and 30 minutes?",  # not 2 hours' 120
    "How many minutes are in 2 and a half hours plus 20 minutes?", "How many minutes is 1 and a half hours, 10 minutes?",
    "How many minutes is two and a half hours, three times a week?",
])  # fmt: skip
def test_what_has_no_fixed_factor_gets_no_figure(question: str) -> None:
    assert conversion(question) is None


@pytest.mark.parametrize(("question", "figure"), [
    ("Which is heavier, a kilo of feathers or a kilo of bricks?",
     "A kilo of feathers and a kilo of bricks weigh the same, as both are a kilo."),  # "A kilo of feathers is heavier ..."
    ("What weighs more, a pound of feathers or a pound of gold?",
     "A pound of feathers and a pound of gold weigh the same, as both are a pound."),
    ("Is a kilo of feathers heavier than a kilo of steel?",
     "Well, a kilo of feathers and a kilo of steel weigh the same, as both are a kilo."),
    ("Is a pound heavier than a kilogram?", "Well, a pound is lighter than a kilogram: a kilogram = about 2.2 pounds."),
    ("Is 100 grams more than a pound?", "Well, 100 grams is less than a pound: a pound = about 454 grams."),
    ("Is a foot shorter than a metre?", "Well, a foot is shorter than a metre: a metre = about 3.3 feet."),
    ("Which is heavier: a pound of feathers or a kilo of bricks?", "A kilo of bricks is heavier: a kilo = about 2.2 pounds."),
    ("Which is lighter, a kilogram of steel or a pound of cotton?",
     "A pound of cotton is lighter: a kilogram = about 2.2 pounds."),
    ("Is a mile longer than a kilometre?", "Well, a mile is longer than a kilometre: a mile = about 1.6 kilometres."),
    ("Which is longer, a week or 100 hours?", "A week is longer: a week = 168 hours."),
    ("Which is longer, a foot or 30 centimetres?", "A foot is longer: a foot = 30.48 centimetres."),
    ("What's heavier, a kilo of feathers or a kilo of bricks?",
     "A kilo of feathers and a kilo of bricks weigh the same, as both are a kilo."),
    ("Which is more, a litre or 500 millilitres?", "A litre is more: a litre = 1000 millilitres."),
    ("What is heavier, 1 kg of feathers or 1 kg of iron?", "1 kg of feathers and 1 kg of iron weigh the same, as both are 1 kg."),
])  # fmt: skip
def test_which_of_two_amounts_is_more_is_worked_out(question: str, figure: str) -> None:
    assert conversion(question) == figure


@pytest.mark.parametrize("question", [
    "Which is more fun, a day at the beach or a day at the park?", "Which is heavier, a kilo or a litre?",
    "Which is bigger, a cat or a dog?", "Is a year longer than a month?",
    "Is a pound of feathers heavier than a pound of gold or a kilo?", "Which is heavier, a mileſ or a kilo?",
])  # fmt: skip
def test_amounts_of_different_kinds_or_no_amounts_get_no_comparison(question: str) -> None:
    assert conversion(question) is None


@pytest.mark.parametrize(("question", "said"), [
    ("If I run 10 kilometres in 50 minutes, what's my average speed in kilometres per hour?",  # "20"
     "Worked out: the answer is 12 kilometres per hour, for 10 kilometres in 50 minutes."),
    ("I drove 150 miles in 2 and a half hours. How fast was I going?",
     "Worked out: the answer is 60 miles per hour, for 150 miles in 2 and a half hours."),
    ("If I walk 6 km in 1 hour and 30 minutes, what is my speed?",
     "Worked out: the answer is 4 kilometres per hour, for 6 km in 1 hour and 30 minutes."),
    ("How fast is 100 metres in 10 seconds in km per hour?",
     "Worked out: the answer is 36 kilometres per hour, for 100 metres in 10 seconds."),
    ("I cycled 30 km in 90 minutes, how many miles an hour is that?",
     "Worked out: the answer is about 12 miles per hour, for 30 km in 90 minutes."),
    ("I ran 26.2 miles in 4 hours 30 minutes, what was my average speed?",
     "Worked out: the answer is about 5.8 miles per hour, for 26.2 miles in 4 hours 30 minutes."),
    ("I walked 3 miles in 1.5 hours, what speed in km/h?",
     "Worked out: the answer is about 3.2 kilometres per hour, for 3 miles in 1.5 hours."),
])  # fmt: skip
def test_a_speed_is_worked_out_from_a_distance_and_its_time(question: str, said: str) -> None:
    assert figure(question) == f"{said} {SHORT_ANSWER}"  # told to be short: it set the method out at length


@pytest.mark.parametrize("question", [
    "If a car goes 60 miles in an hour, how far does it go in 3 hours?", "I ran 5 miles in 40 minutes. What's my pace?",
    "I lost 5 kilos in 3 weeks, how fast is that?", "How fast can a cheetah run?", "I ran 5 km in 2 days. How fast was I?",
    "I drove 300 km in 3 hours. What speed should I drive to do it in 2 hours?",  # another speed than the trip's
    "A car goes 60 miles in 1 hour. How fast is a train that goes twice as fast?",
    "100 metres in 90 seconds, how fast in metres per second?",
    "What's the speed of light in km per hour? I ran 5 km in 30 minutes.",
])  # fmt: skip
def test_no_trip_or_no_speed_asked_gets_no_speed(question: str) -> None:
    assert figure(question) is None


@pytest.mark.parametrize(("question", "said"), [
    ("My car uses 8 litres per 100 kilometres. How much fuel for 250 kilometres?",  # worked out at length, cut
     "Worked out: the answer is 20 litres: 8 litres per 100 kilometres, for 250 kilometres."),
    ("My car does 30 miles per gallon. How many gallons for 300 miles?",
     "Worked out: the answer is 10 gallons: 30 miles per gallon, for 300 miles."),
    ("My car uses 8 litres per 100 kilometres. How much fuel for 250 miles?",
     "Worked out: the answer is about 32 litres: 8 litres per 100 kilometres, for 250 miles."),
    ("How many inches tall is someone who is 5 foot 10?", "5 feet 10 inches = 70 inches."),  # 67, 65
    ("What is 5 feet 6 inches in cm?", "5 feet 6 inches = 167.64 centimetres."),
    ("How tall is 180 centimetres in feet and inches?", "180 centimetres = about 5 feet 11 inches."),  # 5 feet 10
    ("How many eggs are in three and a half dozen?", "three and a half dozen = 42."),  # 45
    ("How many tablespoons are in a quarter cup?", "a quarter cup = 4 tablespoons."),  # 3
    ("If 3 apples cost 1.50 dollars, how much do 7 apples cost?",  # a proportion set up at length, cut
     "Worked out: the answer is 3.50 dollars: 1.50 dollars for 3 is 0.50 dollars each, and 7 cost 3.50 dollars."),
    ("If 4 tickets cost $30, how much do 6 tickets cost?",
     "Worked out: the answer is 45 dollars: 30 dollars for 4 is 7.50 dollars each, and 6 cost 45 dollars."),
])  # fmt: skip
def test_fuel_heights_dozens_and_prices_are_worked_out(question: str, said: str) -> None:
    assert figure(question) == (f"{said} {SHORT_ANSWER}" if said.startswith("Worked out: ") else said)


@pytest.mark.parametrize("question", [
    "How much fuel for 250 km?",  # no rate
    "My car uses 8 litres per 100 kilometres and my van 12 litres per 100 kilometres. How much fuel for 250 kilometres?",
    "I am 5 foot 10. Am I tall?", "How many inches is 5 foot 14?", "How many is half a dozen plus a dozen?",
    "If 3 apples cost 1 dollar, how much do 7 apples cost?",  # a third of a cent each
    "If 3 apples cost 1.50 dollars, how much do 7 pears cost?",
    "If 3 apples cost 1.50 dollars and I have 10 dollars, how much do 7 apples cost?",
    "My car does 30 miles per gallon. How many litres for 300 miles?",  # another unit asked
    "My car does 30 miles per gallon and gas is 4 dollars a gallon. How much to drive 300 miles?",  # a cost asked
    "My car does 30 miles per gallon in the city and 40 on the highway. How many gallons for 300 miles on the highway?",
    "A truck uses 30 litres per 100 km and a car uses 8. How much fuel for 200 km for the car?",
    "My car uses 8 litres per 100 km. How much fuel for 250 km each way?",
    "How many cm is 5 feet 10.5 inches?", "If I jump 5 feet 3 times, how many inches is that in total?",
    "What is 2 feet 6 inches times 3 in inches?", "How many inches do I need to grow to reach 6 feet if I'm 5 foot 8?",
    "My room is 12 feet 6 inches by 9 feet 4 inches. What is that in cm?",
    "A pool is 150 cm deep and 25 metres long. How long is it in feet?",
    "How many eggs are in a dozen dozen?", "How many legs are in a dozen spiders?",
    "I ran 3 laps of a quarter mile in 6 minutes, how fast was I going?", "How many days in a third year?",
])  # fmt: skip
def test_no_rate_height_or_price_told_gets_nothing(question: str) -> None:
    assert figure(question) is None


def test_the_figure_is_added_to_the_newest_user_message_once_and_taken_off_for_its_words() -> None:
    asked = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "How many hours are in two days?"}]
    hinted = with_conversion_hint(asked)
    assert hinted[-1]["content"] == "How many hours are in two days?\n\n(two days = 48 hours.)"
    assert asked[-1]["content"] == "How many hours are in two days?"  # a copy, not changed
    assert with_conversion_hint(hinted) == hinted
    assert without_conversion_hint(hinted[-1]["content"]) == user_words(hinted[-1]["content"]) == asked[-1]["content"]
    assert without_conversion_hint("I said (hello)") == "I said (hello)"
    answered = [*asked, {"role": "assistant", "content": "48 hours."}]
    assert with_conversion_hint(answered) == answered


async def test_a_reply_gets_the_figure_and_the_conversation_keeps_the_words(tmp_path) -> None:
    """The session's wiring, on the realtime rig's fake engine, with conversion_hints on and off."""
    from realtime_fakes import make_rig

    question = "How many centimetres are in 2 metres?"
    for hints in (True, False):
        rig = await make_rig(tmp_path / str(hints), conversion_hints=hints)
        try:
            await rig.send({"type": "conversation.item.create", "item": {"type": "message", "role": "user", "content": [
                {"type": "input_text", "text": question}]}})  # fmt: skip
            await rig.send({"type": "response.create"})
            await rig.outbox.wait_for("response.done")
            assert ("(2 metres = 200 centimetres.)" in rig.engine.requests[0]["messages"][-1]["content"]) is hints
            assert [m.text for m in rig.history.load_sync(rig.session.id)][0] == question
        finally:
            await rig.close()


async def test_the_served_model_gives_the_figure(tools_server_url: str) -> None:
    """The real 1.5B through the real server: "There are 100 centimetres in 1 metre." for this question in most runs
    before the figure."""
    for question, answer in (("How many centimetres are in 2 metres?", "200"), ("How many weeks are in 2 years?", "104")):
        (reply,) = await text_replies(tools_server_url, question)
        assert matches(reply, [answer]), (question, reply)
