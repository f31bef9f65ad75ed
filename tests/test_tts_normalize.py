"""normalize_for_speech: what the synthesiser is given to read."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.tts import normalize_for_speech
from app.tts.numbers import number_to_words, ordinal_to_words


@pytest.mark.parametrize(
    ("number", "words"),
    [
        (0, "zero"), (7, "seven"), (13, "thirteen"), (40, "forty"), (21, "twenty-one"), (100, "one hundred"),
        (115, "one hundred fifteen"), (1001, "one thousand one"),
        (12345, "twelve thousand three hundred forty-five"), (2_000_000, "two million"),
        (3_000_000_017, "three billion seventeen"), (-8, "minus eight"),
    ],
)  # fmt: skip
def test_number_to_words(number: int, words: str) -> None:
    assert number_to_words(number) == words


@pytest.mark.parametrize(
    ("number", "words"),
    [(1, "first"), (2, "second"), (3, "third"), (5, "fifth"), (12, "twelfth"), (20, "twentieth"),
     (21, "twenty-first"), (103, "one hundred third")],
)  # fmt: skip
def test_ordinal_to_words(number: int, words: str) -> None:
    assert ordinal_to_words(number) == words


@pytest.mark.parametrize(
    ("text", "spoken"),
    [
        ("It costs $3.50 today.", "It costs three dollars and fifty cents today."),
        ("Only €20, or £1.", "Only twenty euros, or one pound."),
        ("$1,000 and $0.05", "one thousand dollars and five cents"),
        ("a $1.5 million deal", "a one point five million dollars deal"),
        ("You get 6.50 dollars back, and 1,037.05 euros.",
         "You get six dollars and fifty cents back, and one thousand thirty-seven euros and five cents."),
        ("37.50 pounds left, 2.25 pounds of flour",
         "thirty-seven pounds and fifty pence left, two point two five pounds of flour"),
        ("Growth was 3.5% and 50 %.", "Growth was three point five percent and fifty percent."),
        ("Meet at 3:30 pm.", "Meet at three thirty p m."),
        ("Meet at 3:05 PM tomorrow", "Meet at three oh five p m tomorrow"),
        ("Wake up at 7am and again at 10:00", "Wake up at seven a m and again at ten o'clock"),
        ("the 1st, 2nd, 3rd and 21st", "the first, second, third and twenty-first"),
        ("It is 5:46 PM on Saturday, December 5, 2026.",
         "It is five forty-six p m on Saturday, December fifth, two thousand twenty-six."),
        ("From 3 May to June 21 in March 2026", "From the third of May to June twenty-first in March two thousand twenty-six"),
        ("It is 2026-12-01T16:45:00Z, Tuesday.", "It is December first, two thousand twenty-six, sixteen forty-five, Tuesday."),
        ("Due 2026-12-05 and 2026-12-05 05:46", "Due December fifth, two thousand twenty-six and December fifth, two thousand "
         "twenty-six, five forty-six"),
        ("In 1999 and 2024 we had 1,000,000 users",
         "In nineteen ninety-nine and two thousand twenty-four we had one million users"),
        ("Pi is 3.14", "Pi is three point one four"),
        ("It was -5 degrees, or 23°C", "It was minus five degrees, or twenty-three degrees Celsius"),
        ("pages 5-10", "pages five to ten"),
        ("It ran from 1990-2000.", "It ran from nineteen ninety to two thousand."),  # "ten-twenty" at a sentence's end
        ("Call 555-1234 or +44 20 7946 0958.", "Call five five five, one two three four or plus four four, two zero, seven "
         "nine four six, zero nine five eight."),
        ("My number is 07700 900123.", "My number is zero seven seven zero zero, nine zero zero one two three."),
        ("Please call 911 now; in Europe, dial 112.", "Please call nine one one now; in Europe, dial one one two."),
        ("The emergency number is 999. Room 112 is upstairs.",
         "The emergency number is nine nine nine. Room one hundred twelve is upstairs."),
        ("I called 3 friends between 100 200 and 300.",
         "I called three friends between one hundred two hundred and three hundred."),
        ("Agent 007", "Agent zero zero seven"),
        ("Tom & Jerry: 2 + 2 = 4", "Tom and Jerry: two plus two equals four"),
        ("Call #5 @ home", "Call number five at home"),
        ("It is 1/2 done", "It is one half done"),
        ("It is spelled N-E-C-E-S-S-A-R-Y.", "It is spelled N, E, C, E, S, S, A, R, Y."),
        ("spelled r-e-c-e-i-v-e, and a T-shirt", "spelled R, E, C, E, I, V, E, and a T-shirt"),
        ("It is spelled G-O, not x-y.", "It is spelled G, O, not x-y."),
        ("Mail j-d-x@example.com or see https://a-b-c.example.com/x",
         "Mail j-d-x at example dot com or see a-b-c dot example dot com"),
        ("Mount Everest is 8,848 m (29,032 ft) tall.",
         "Mount Everest is eight thousand eight hundred forty-eight meters (twenty-nine thousand thirty-two feet) tall."),
        ("It is 8,848 meters (29, 791 feet) high, about 5, 900 degrees or 10, 000.",  # a space after the comma
         "It is eight thousand eight hundred forty-eight meters (twenty-nine thousand seven hundred ninety-one feet) high, "
         "about five thousand nine hundred degrees or ten thousand."),
        ("Pick 100, 200, 300 dollars, or 100, 200 or 300; in 1990, 200 people came.",  # lists and a year stay apart
         "Pick one hundred, two hundred, three hundred dollars, or one hundred, two hundred or three hundred; in nineteen "
         "ninety, two hundred people came."),
        ("Up to 70 mph (112 km/h), 1 km in 30 secs.",
         "Up to seventy miles per hour (one hundred twelve kilometers per hour), one kilometer in thirty seconds."),
        ("778 million km away; 1 kg, 2.2 lbs or 35 oz; 9.8 million km²",
         "seven hundred seventy-eight million kilometers away; one kilogram, two point two pounds or thirty-five ounces; "
         "nine point eight million square kilometers"),
        ("a 5km run, 128 GB, 100 sq ft", "a five kilometers run, one hundred twenty-eight gigabytes, one hundred square feet"),
        ("In the 1990s, the '80s, the 1900s, the 2000s and her 20s.",
         "In the nineteen nineties, the eighties, the nineteen hundreds, the two thousands and her twenties."),
        ("Vitamin B12, H2O, a 5G phone, F1, a 3D film, room 12B", "Vitamin B twelve, H two O, a five G phone, F one, a three D "
         "film, room twelve B"),
        ("It is 3x faster, and 2x + 3 = 7.", "It is three times faster, and two x plus three equals seven."),
        ("three 5s, the 747s, 1s and 0s", "three fives, the seven hundred forty-sevens, ones and zeros"),
        ("300 pages / 20 pages per day = 15 days; open 24 / 7", "three hundred pages divided by twenty pages per day equals "
         "fifteen days; open twenty-four / seven"),
        ("350 W 42nd St, size 12 L, 5m views", "three hundred fifty W forty-second St, size twelve L, five m views"),
    ],
)
def test_numbers_currency_times_and_symbols_are_spoken(text: str, spoken: str) -> None:
    assert normalize_for_speech(text) == spoken


@pytest.mark.parametrize(
    ("text", "spoken"),
    [
        ("**Bold** and *italic* and ~~gone~~ text", "Bold and italic and gone text"),
        ("# Title\n- item one\n- item two", "Title. item one. item two."),
        ("1. Apples\n2. Pears", "Apples. Pears."),
        ("> a quote", "a quote"),
        ("See [the docs](http://example.com/x).", "See the docs."),
        ("Use `ls` here:\n```python\nprint(1)\n```\nDone.", "Use ls here: Done."),
        ("Call `compute(x, y); return z` now", "Call now"),
        ("| a | b |\n|---|---|\n| 1 | 2 |", "a, b. one, two."),
        ("Hello 😀 world 🎉! 👍🏽", "Hello world!"),
        ("Email john.doe@example.com or see https://www.example.com/path?x=1.",
         "Email john dot doe at example dot com or see example dot com."),
        ("Dr. Smith met Mr. Jones, e.g. in the U.S. etc.",
         "Doctor Smith met Mister Jones, for example in the U S et cetera."),
        ("<b>bold</b> text", "bold text"),
    ],
)
def test_markdown_code_emoji_and_links_are_stripped(text: str, spoken: str) -> None:
    assert normalize_for_speech(text) == spoken


@pytest.mark.parametrize(
    ("text", "spoken"),
    [
        ('Hello in Japanese is "こんにちは".', 'Hello in Japanese is "konnichiha".'),
        ('Yes, in Japanese, you say "はい" (hai).', 'Yes, in Japanese, you say "hai".'),
        ("In Russian, thank you is спасибо (spasibo).", "In Russian, thank you is spasibo."),
        ("Arigatou (ありがとう) means thank you.", "Arigatou means thank you."),
        ("Hello in Chinese is 你好 (nǐ hǎo).", "Hello in Chinese is nǐ hǎo."),
        ("Hello in Chinese is 你好.", "Hello in Chinese is ni hao."),
        ("In Korean, hello is 안녕하세요.", "In Korean, hello is an nyeong ha se yo."),
        ("In Russian Привет means hi; in Arabic, hello is مرحبا (marhaba), thanks is شكرا.",
         "In Russian privet means hi; in Arabic, hello is marhaba, thanks is."),
        ("Take 5 μg daily; π is about 3.14.", "Take five μg daily; π is about three point one four."),  # Greek stays
        ("In Hindi: नमस्ते (namaste)!", "In Hindi: namaste!"),
        ("¿Dónde está el baño? Grüße, ça va.", "¿Dónde está el baño? Grüße, ça va."),  # Latin letters stay as written
    ],
)
def test_a_script_the_voice_cannot_read_is_said_as_it_sounds(text: str, spoken: str) -> None:
    assert normalize_for_speech(text) == spoken


@pytest.mark.parametrize("text", ["", "   ", "😀🎉", "```\ncode only\n```", "**", "---"])
def test_nothing_speakable_gives_empty_text(text: str) -> None:
    assert normalize_for_speech(text) == ""


def test_plain_text_passes_unchanged() -> None:
    text = "The quick brown fox jumps over the lazy dog, doesn't it? Yes!"
    assert normalize_for_speech(text) == text


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(list("ab XY 0123456789 .,;:!?$€£%&+=@#*_`~|<>/\\-–()[]{}'\"\n😀🎉°^")
                        + ["https://a.b/c", "x@y.com", "**", "```", "1st", "3:30", "p.m.", "Dr.", "1/2", "-5", "こんにちは",
                           "你好", "спасибо", "(hai)", "안녕", "١٢٣", "１２"]),
        max_size=30,
    ).map("".join)
)
def test_no_digits_markup_or_emoji_reach_the_synthesiser(text: str) -> None:
    assert not re.search(r"[0-9*#`_|<>😀🎉\u0400-\u04ff\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]", normalize_for_speech(text))
