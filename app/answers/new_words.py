"""A new word asked for on no subject, drawn from words written down with what they mean.

Asked "Teach me a new word.", the 1.5B asked which word the user wanted ("Sure, I'd be happy to teach you a new word.
What would you like to learn?", 8 of 12 replies; docs/benchmarks.md, "A game offered"). As a fact is drawn for
"Tell me a fun fact." (``app.answers.facts``), the server draws a word not taught yet in the conversation, and
"Another one." after one draws the next.
"""

from __future__ import annotations

import random
import re

from app.answers.wording import ANOTHER_ASKED, REQUEST_END, REQUEST_START, draw_asked

# (the word, what it means as said after "It means"), each meaning the word's commonest one
WORDS = (
    ("serendipity", "finding something good by chance, without looking for it"),
    ("petrichor", "the pleasant, earthy smell in the air after rain falls on dry ground"),
    ("ephemeral", "lasting only a very short time, like a soap bubble"),
    ("ubiquitous", "found everywhere, like phones in a city"),
    ("mellifluous", "sweet and smooth to hear, like a lovely voice"),
    ("quixotic", "full of noble but impractical ideas, after the hero of the novel Don Quixote"),
    ("halcyon", "calm, happy and carefree, as in the halcyon days of one's youth"),
    ("gregarious", "fond of company, happiest when with other people"),
    ("resilient", "able to recover quickly from a setback, like a plant that springs back after a storm"),
    ("eloquent", "able to speak or write clearly and movingly"),
    ("epiphany", "a sudden moment of understanding, when something finally makes sense"),
    ("wanderlust", "a strong wish to travel and see the world"),
    ("onomatopoeia", "a word that sounds like what it names, such as buzz, sizzle or splash"),
    ("defenestration", "the act of throwing someone or something out of a window"),
    ("zenith", "the highest point something reaches, as in a career at its zenith"),
    ("candor", "honesty, saying what you really think"),
    ("solace", "comfort in a time of sadness"),
    ("whimsical", "playful and a little odd, in a charming way"),
    ("ebullient", "cheerful and full of energy"),
    ("labyrinth", "a maze, a place with so many paths that it is easy to get lost"),
    ("ineffable", "too great or too wonderful to be put into words"),
    ("nostalgia", "a fond, slightly sad longing for the past"),
    ("meticulous", "very careful about every small detail"),
    ("luminous", "giving off light, or glowing brightly"),
)
# not "a hard word" (to spell, maybe)
_KINDS = r"(?:new|cool|fancy|big|unusual|interesting|fun|good|great|nice|beautiful|rare|smart|clever)"
_WHICH_WORD = r"(?: (?:of|for) the day| (?:i|we) (?:don't|dont|might not|probably don't) know)"
# "Teach me a new word.", "Tell me a big word.", "Give me a word of the day." (not "Give me a word.": a game's, maybe)
_ASKED = re.compile(
    rf"{REQUEST_START}(?:(?:can|could|would|will) (?:you|u) )?(?:teach (?:me |us )?(?:a|an|another|one more|some|your)"
    rf" (?:{_KINDS} )?(?:english )?(?:word|words){_WHICH_WORD}?|(?:tell|give|show) (?:me |us )?(?:a|an|another|one more|some"
    rf"|your) (?:(?:{_KINDS} (?:english )?(?:word|words)){_WHICH_WORD}?|(?:english )?(?:word|words){_WHICH_WORD}))"
    rf"{REQUEST_END}|{REQUEST_START}(?:teach|help) (?:me|us) (?:learn )?(?:some )?(?:new )?(?:words|vocabulary)"
    rf"{REQUEST_END}|^(?:what(?:'s| is) (?:the |today's |your ))?word of the day[.!?]*$",
    re.I,
)
WORD_REQUEST = re.compile(f"{_ASKED.pattern}|{ANOTHER_ASKED.pattern}", re.I)


def word_to_teach(question: str, replies: list[str], draws: random.Random) -> tuple[str, str] | None:
    """For a request for a new word, one of ``WORDS`` (the word, what it means) not in the conversation's ``replies``
    (``draw_asked``); "Another one." only where the last reply taught one."""
    return draw_asked(question, replies, draws, _ASKED, WORDS, lambda pair, reply: _taught(pair[0], reply))


def _taught(word: str, reply: str) -> bool:
    """Whether ``reply`` taught ``word``: named it and said what it means (not a joke or a tongue twister with it in)."""
    return re.search(rf"\b{word}\b", reply, re.I) is not None and "mean" in reply.lower()
