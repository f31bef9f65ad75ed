"""A tongue twister asked for, drawn from well-known ones.

Asked "Give me a tongue twister.", the 1.5B said a sentence that twists no tongue ("I saw a man in a suit, sitting on a
chair, smoking a cigarette, and drinking a glass of milk.") or a pangram ("Quick brown fox jumps over the lazy dog.";
docs/benchmarks.md, "A game offered; tongue twisters"). As a joke is drawn (``app.answers.jokes``), the server draws a
twister not said yet in the conversation, and "Another one." after one draws the next.
"""

from __future__ import annotations

import random
import re

from app.answers.wording import ANOTHER_ASKED, REQUEST_END, REQUEST_START, draw_asked

TWISTERS = (
    "She sells seashells by the seashore.",
    "Peter Piper picked a peck of pickled peppers.",
    "How much wood would a woodchuck chuck if a woodchuck could chuck wood?",
    "Red lorry, yellow lorry, red lorry, yellow lorry.",
    "Unique New York, unique New York, you know you need unique New York.",
    "Toy boat, toy boat, toy boat.",
    "Fuzzy Wuzzy was a bear. Fuzzy Wuzzy had no hair. Fuzzy Wuzzy wasn't fuzzy, was he?",
    "I scream, you scream, we all scream for ice cream.",
    "Six slippery snails slid slowly seaward.",
    "Betty Botter bought some butter, but she said the butter's bitter.",
    "Irish wristwatch, Swiss wristwatch.",
    "Fred fed Ted bread, and Ted fed Fred bread.",
    "Around the rugged rocks the ragged rascal ran.",
    "Which witch is which?",
    "Rubber baby buggy bumpers.",
    "A proper copper coffee pot.",
    "Three free throws.",
    "Eleven benevolent elephants.",
)
_LEAD_WORDS = 4  # before a twister said: "Okay, here is one:"
_KINDS = r"(?:good|hard|difficult|tricky|funny|fun|short|quick|long|famous|new)"
# "Give me a tongue twister.", "Do you know any tongue twisters?", "Another tongue twister, please."
_ASKED = re.compile(
    rf"{REQUEST_START}(?:(?:(?:can|could|would|will) (?:you|u) )?(?:tell|give|say|teach|hear|do) (?:me |us )?|how about "
    rf"|i(?: want|'d like| would like) to hear |i need |(?:(?:do|did) you )?know |(?:you )?got )?(?:a|an|another|one more"
    rf"|some|any|your best)? ?(?:{_KINDS} )?tongue[- ]?twisters?{REQUEST_END}",
    re.I,
)
TWISTER_TALK = re.compile(f"{_ASKED.pattern}|{ANOTHER_ASKED.pattern}", re.I)


def twister_to_say(question: str, replies: list[str], draws: random.Random) -> str | None:
    """For a request for a tongue twister, one of ``TWISTERS`` not in the conversation's ``replies`` (``draw_asked``);
    "Another one." only where the last reply said one."""
    return draw_asked(question, replies, draws, _ASKED, TWISTERS, _said)


def _said(twister: str, reply: str) -> bool:
    """Whether ``reply`` said ``twister``: its first words, after no more than a few ("Sure! Here's one:"; not "In the
    final seconds he made three free throws.")."""
    at = reply.lower().find(twister[:20].lower())
    return at >= 0 and len(reply[:at].split()) <= _LEAD_WORDS
