"""A riddle asked for, drawn from riddles with one answer, and that answer when the user guesses or gives up.

Asked for a riddle, the 1.5B made one up that had no sound answer ("What has four legs, two heads, and always tells the
truth?" -> "The answer is a dog.") or stopped at "Sure, here's a riddle for you:", and judged a guess at random ("Is it
a shadow?" -> "Yes, it is a shadow."; docs/benchmarks.md, "A riddle"). As a fact is drawn for "Surprise me."
(``app/answers/facts.py``), the server draws a riddle not told yet in the conversation, and what follows it is read
from the riddle the reply told: a guess is right or not by the answer's words, a second wrong guess or "I give up."
gets the answer, "Give me a hint." its hint, and "Another one." the next riddle. A riddle on a subject named ("Tell me
a riddle about cats.") is the model's to make.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Literal

from app.answers.wording import ANOTHER_ASKED, REQUEST_END, REQUEST_START, draw_unsaid, plain


@dataclass(frozen=True)
class Riddle:
    asks: str
    answer: str  # as said after "The answer is"
    why: str
    hint: str
    right: tuple[str, ...]  # a guess that ends in one of these is the answer
    also: tuple[str, ...] = ()  # ... or another answer that fits as well
    heard: tuple[str, ...] = ()  # other ways a user asks it


RIDDLES = (
    Riddle("What has keys but can't open a single lock?", "a piano", "Its keys play music, but they open nothing.",
           "It makes music.", ("piano", "keyboard"), ("typewriter", "computer", "laptop", "map")),
    Riddle("What has to be broken before you can use it?", "an egg", "You crack it before you cook it.",
           "You might have it for breakfast.", ("egg",), ("promise", "seal")),
    Riddle("What gets wetter the more it dries?", "a towel", "It gets wet as it dries you.", "You use it after a shower.",
           ("towel",), ("sponge", "cloth", "tea towel", "dish towel"), heard=("What gets wet while it dries?",)),
    Riddle("What has hands but can't clap?", "a clock", "Its hands point to the time.", "You might see one on a kitchen wall.",
           ("clock", "watch", "wristwatch")),
    Riddle("What has a neck but no head?", "a bottle", "Its neck is the narrow part at the top.", "Milk can come in one.",
           ("bottle",), ("shirt", "sweater", "jumper", "guitar", "violin", "vase", "jar")),
    Riddle("What goes up but never comes down?", "your age", "It goes up every birthday.",
           "Everyone has one, and it changes on your birthday.", ("age",)),
    Riddle("What can you catch but not throw?", "a cold", "You catch a cold, but you can't throw one.",
           "It can give you a runny nose.", ("cold", "flu"), ("breath", "bus", "train", "glimpse", "virus")),
    Riddle("What has one eye but can't see?", "a needle", "The thread goes through its eye.", "It's used for sewing.",
           ("needle",), ("hurricane", "storm", "potato")),
    Riddle("The more you take, the more you leave behind. What are they?", "footsteps",
           "Every step you take leaves one behind.", "You make them when you walk.", ("footstep", "step", "footprint"),
           heard=("The more you take, the more you leave behind.",)),
    Riddle("What has a head and a tail but no body?", "a coin", "Heads on one side, tails on the other.",
           "You might flip it.", ("coin", "penny")),
    Riddle("What runs but never walks, and has a mouth but never talks?", "a river", "Its water runs to its mouth.",
           "Fish live in it.", ("river", "stream")),
    Riddle("What belongs to you, but other people use it more than you do?", "your name",
           "Other people say it far more often than you do.", "People call you by it.", ("name",)),
    Riddle("I'm tall when I'm young and short when I'm old. What am I?", "a candle", "It burns down as it gets older.",
           "It gives light, and it melts.", ("candle",), ("pencil", "crayon")),
    Riddle("What is full of holes but still holds water?", "a sponge", "Its holes soak the water up.",
           "It sits by the kitchen sink.", ("sponge",)),
    Riddle("What can travel around the world while staying in a corner?", "a stamp",
           "It stays in the corner of an envelope.", "You find it on a letter.", ("stamp", "postage stamp")),
    Riddle("What has many teeth but can't bite?", "a comb", "Its teeth go through your hair.", "You use it on your hair.",
           ("comb",), ("zipper", "zip", "saw", "gear", "rake")),
    Riddle("What building has the most stories?", "a library", "It's full of books, and every book is a story.",
           "You can borrow things there.", ("library",)),
    Riddle("If you drop me I'm sure to crack, but smile at me and I'll always smile back. What am I?", "a mirror",
           "It smiles back because it shows your own face.", "You look into it every morning.", ("mirror",)),
    Riddle("What has words but never speaks?", "a book", "It's full of words, and you read them.", "A library is full of them.",
           ("book",), ("newspaper", "magazine", "dictionary", "letter", "sign", "poster", "page")),
    Riddle("What comes once in a minute, twice in a moment, but never in a thousand years?", "the letter M",
           "Look at the spelling: minute has one M, moment has two.", "Think about how the words are spelled.",
           ("m", "letter m")),
    Riddle("What is so fragile that saying its name breaks it?", "silence", "Say its name and it's gone.",
           "A library asks you to keep it.", ("silence",)),
    Riddle("What has a thumb and four fingers but isn't alive?", "a glove", "Your hand fills it.", "You wear it in winter.",
           ("glove", "mitten")),
    Riddle("Where does today come before yesterday?", "in the dictionary", "The words are in alphabetical order.",
           "Think of a book that puts words in order.", ("dictionary",)),
    Riddle("What goes through cities and fields but never moves?", "a road", "It runs everywhere and stays put.",
           "Cars drive on it.", ("road", "street", "highway", "motorway"), ("path", "railway", "railroad", "track")),
    Riddle("What is always in front of you but can't be seen?", "the future", "It's always ahead of you.",
           "It has to do with time.", ("future",), ("air",)),
    Riddle("What kind of room has no doors or windows?", "a mushroom", "It's a mush-room.", "It grows in a forest.",
           ("mushroom",)),
    Riddle("What gets bigger the more you take away from it?", "a hole", "The more you dig, the bigger it gets.",
           "You might dig one in a garden.", ("hole",)),
    Riddle("What month of the year has 28 days?", "all of them",
           "Every month has at least 28 days, and February has just 28, or 29 in a leap year.",
           "Think about the days in March.", ("all", "all of them", "every month", "every one", "each one", "all twelve",
                                               "all months", "all the months", "every single one"),
           heard=("How many months have 28 days?", "Which months have 28 days?",
                  "How many months of the year have 28 days?")),
    Riddle("What can fill a room but takes up no space?", "light", "It fills the room, yet it takes up no room at all.",
           "You switch it on when it gets dark.", ("light",), ("darkness", "sound", "smell", "laughter", "music")),
)
# A riddle the user asks (the 1.5B: "How many months have 28 days?" -> "There are 7 months that have 28 days.", 2 of 2):
# one of ``RIDDLES`` in its words or in ``heard``, give or take the small words, a plural, "has" for "have", "can not"
# for "can't", "twenty-eight" for "28", and a preface ("Here's a riddle:").
_LOOSE = r"(?:a|an|the|one|single|but|and|still|ever|just)"
_PREFACE = (r"(?:(?:ok|okay|so|hey|well|alright)[,.!]? )?(?:(?:here's|here is|i have|i've got|i got|try|answer|solve|guess)"
            r" (?:a|this|my|one) riddle(?: for you)?[:,.!-]* |riddle me this[:,.!-]* )?")
_SAID_AS = {"28": "(?:28|twenty[- ]eight)", "has": "ha(?:s|ve)", "have": "ha(?:s|ve)", "i'm": "i(?:'m| am)",
            "i'll": "i(?:'ll| will)", "it's": "it(?:'s| is)"}  # fmt: skip


def _word_said(word: str) -> str:
    if word in _SAID_AS:
        return _SAID_AS[word]
    if word.endswith("n't"):  # "can't" -> "can not", "cannot"; "isn't" -> "is not"
        return "can(?:'t| ?not)" if word == "can't" else rf"{re.escape(word[:-3])}(?:n't| not)"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return rf"{re.escape(word[:-1])}(?:s|es)?"
    return rf"{re.escape(word)}(?:s|es)?" if len(word) > 3 else re.escape(word)


def _said_as(question: str) -> re.Pattern[str]:
    """``question``'s words, with room for the ways a user says them."""
    words = [word for word in re.findall(r"[a-z0-9']+", question.lower()) if not re.fullmatch(_LOOSE, word)]
    gap = rf"[\s,;:.!?-]+(?:{_LOOSE}[\s,;:-]+)*"
    return re.compile(rf"^{_PREFACE}(?:{_LOOSE}\s+)*{gap.join(map(_word_said, words))}[\s.!?]*$", re.I)


_HEARD = tuple((_said_as(asked), riddle) for riddle in RIDDLES for asked in (riddle.asks, *riddle.heard))
RIDDLE_HEARD = re.compile("|".join(f"(?:{pattern.pattern})" for pattern, _ in _HEARD), re.I)


def riddle_heard(question: str, replies: list[str]) -> Riddle | None:
    """The riddle of ``RIDDLES`` that ``question`` asks, or None; not one a recent reply told, which the user says
    again as they think it over."""
    text = plain(question)
    heard = next((riddle for pattern, riddle in _HEARD if pattern.search(text)), None) if len(text) <= 200 else None
    return heard if heard is not None and heard is not _open(replies)[0] else None


_RIDDLE_ASKED = re.compile(
    rf"{REQUEST_START}(?:(?:tell|give|ask|read|share) (?:me|us) |(?:can|may) (?:i|we) (?:have|get|hear) |i want |i'd like "
    r"|(?:do|let's do|let's have|how about|what about) )?(?:a|an|another|one more|one|some|any)? ?(?:(?:good|hard|easy|fun"
    rf"|funny|tricky|short|simple|difficult|new|clever|little) )?riddles?(?: (?:for|to) (?:me|us))?{REQUEST_END}"
    r"|^(?:do|did) you (?:know|have) (?:a|any|some) (?:(?:good|fun|funny|hard|easy|tricky) )?riddles?(?: for (?:me|us))?"
    r"\?*$|^(?:let's|can we|shall we|could we) (?:play|do) riddles[.!?]*$",
    re.I,
)
GIVE_UP = re.compile(
    r"^(?:(?:hmm|um|oh|ok|okay|no|uh|gosh)[,.!]* )*(?:i give up|i don't know|no idea|i have no idea|i can't guess"
    r"|i'm stumped|tell me(?: the answer)?|you tell me)(?:[,.!]* (?:what(?:'s| is) (?:it|the answer)|tell me))?[?.!]*$",
    re.I,
)
_FILLER = r"(?:(?:hmm+|um+|uh+|oh|ooh|ah|ok|okay|well|so|wait|let me think|let me see|i know|easy)[,.!]* )*"
_HINT = re.compile(rf"^{_FILLER}(?:(?:can|could) (?:i|we) (?:have|get) |(?:can|could) (?:you|u) give (?:me|us) |give (?:me|us)"
                   r" |i need |i want )?(?:a |another |one more |any |some )?(?:hint|clue)s?(?:,? please)?[?.!]*$",
                   re.I)  # fmt: skip
# a guess: "Is it a shadow?", "I think it's a door.", "Maybe a book?", "A clock?", "Silence!", up to three words of a
# thing; one that is not the answer only as a thing with "a", "an" or "the", asked or said as a guess
_GUESS = re.compile(
    rf"^{_FILLER}(?P<lead>(?:is it|is that|could it be|would it be|is the answer|it's|it is|i think it's|i think it is"
    r"|i guess it's|i bet it's|maybe|perhaps|the answer is|my guess is|my answer is|i'd say|i'll say)[,:]? )?"
    r"(?:(?P<article>a|an|the|your|my|some|in the|in a) )?(?P<thing>[a-z0-9][a-z0-9'-]*(?: [a-z0-9][a-z0-9'-]*){0,2})"
    r"(?P<end>[?.!]*)$",
    re.I,
)
_NOT = re.compile(r"\b(?:not|no|but|except|never|isn't|it's not)\b", re.I)
_KINDS = re.compile(  # a kind of thing asked about, no guess at the thing: "Is it an animal?"
    r"^(?:thing|object|animal|person|instrument|musical instrument|food|place|tool|item|device|machine|piece of furniture"
    r"|plant|fruit|vegetable|living thing|body part|part of the body|toy|game|word|letter|number|idea|feeling|mammal|bird"
    r"|fish|insect|reptile|vehicle|building|drink|liquid|colou?r|shape|piece of clothing|kind of \w+|type of \w+)$",
    re.I,
)
_NOT_A_GUESS = re.compile(  # said after a riddle, and no answer to it
    r"\b(?:what|why|how|who|where|when|huh|yes|yeah|no|nope|sure|again|repeat|hint|clue|riddles?|hard|easy|funny|cool"
    r"|nice|good|great|wow|haha|lol|sorry|pardon|you|thanks|thank|know|sense|mean|stop|enough|another|more|one|understand"
    r"|that|this|hello|hi|bye|goodbye|okay|ok|hmm|um|i|it|its|we|me|my|love|like|hate|think|can|do|does|is|are|and|or"
    r"|in|on|for|to|at|with|about|help|really|wait|what's|whats|which|fact|interesting|idea|ideas|question|answer|joke"
    r"|game|today|tomorrow|now|here|there|outside|day|morning|night|please|time|too|much|still|such|next|else|same|best"
    r"|lot|end|classic|turn|mistake)\b",
    re.I,
)
_GUESS_AGAIN = "Have another guess"  # the reply to a first wrong guess says it, and the riddle stays open
RIDDLE_TALK = re.compile(
    f"{_RIDDLE_ASKED.pattern}|{ANOTHER_ASKED.pattern}|{GIVE_UP.pattern}|{_HINT.pattern}|{_GUESS.pattern}", re.I
)


def riddle_to_tell(question: str, replies: list[str], draws: random.Random) -> str | None:
    """For ``question`` asking for a riddle, or "Another one." after one, one of ``RIDDLES`` not told yet in the
    conversation's ``replies`` (``draw_unsaid``); else None."""
    text = plain(question)
    if len(text) > 200:
        return None
    if not _RIDDLE_ASKED.search(text):
        if not ANOTHER_ASKED.search(text) or not replies:
            return None
        if _open(replies)[0] is None and not any(_answered(riddle, replies[-1]) for riddle in RIDDLES):
            return None
    return draw_unsaid(draws, RIDDLES, _told, replies).asks


@dataclass(frozen=True)
class FollowUp:
    """What to say after a riddle (``words``), and what it is: the answer to giving up, a hint, or a guess's verdict."""

    kind: Literal["answer", "hint", "right", "wrong"]
    words: str


def riddle_follow_up(question: str, replies: list[str]) -> FollowUp | None:
    """What to say to ``question`` where it follows a riddle a recent reply told: the answer to giving up, a hint, or
    a guess's verdict (a second wrong guess gets the answer); else None."""
    text = plain(question)
    riddle, wrong = _open(replies)
    if riddle is None or len(text) > 200:
        return None
    answer = f"The answer is {riddle.answer}. {riddle.why}"
    if GIVE_UP.search(text):
        return FollowUp("answer", answer)
    if _HINT.search(text):
        return FollowUp("hint", riddle.hint)
    found = _GUESS.search(text)
    if found is None or _NOT.search(found["thing"]):
        return None
    guess = found["thing"].lower()
    if _ends_in(guess, riddle.right):
        return FollowUp("right", f"Yes, that's right! It's {riddle.answer}. {riddle.why}")
    if _ends_in(guess, riddle.also):
        return FollowUp("right", f"Yes, that works too! I was thinking of {riddle.answer}. {riddle.why}")
    article = (found["article"] or "").lower()
    if article not in ("a", "an", "the") or not (found["lead"] or "?" in found["end"]):
        return None  # "A lot.", "My bad.", "Seriously?": no guess at the thing
    if _KINDS.search(guess) or _NOT_A_GUESS.search(guess):
        return None
    return FollowUp("wrong", f"Not quite. {answer}" if wrong else f"Not quite! {_GUESS_AGAIN}, or ask me for a hint.")


def _ends_in(guess: str, answers: tuple[str, ...]) -> bool:
    """Whether ``guess`` ends in one of ``answers``, or its plural: "a grand piano", "pianos", "watches", "dictionaries"."""
    forms = {guess, re.sub(r"ies$", "y", guess), re.sub(r"es$", "", guess), re.sub(r"s$", "", guess)}
    return any(re.search(rf"(?:^|\s){re.escape(answer)}$", form) for form in forms for answer in answers)


def _open(replies: list[str]) -> tuple[Riddle | None, bool]:
    """The riddle a recent reply told, where every reply since was a wrong guess's or its hint's, and whether a wrong
    guess was met since."""
    for back in range(1, min(len(replies), 4) + 1):
        told = next((riddle for riddle in RIDDLES if _told(riddle, replies[-back])), None)
        if told is None:
            continue
        since = [reply.lower() for reply in replies[len(replies) - back + 1 :]]
        wrong = [_GUESS_AGAIN.lower() in reply for reply in since]
        if all(missed or told.hint[:-1].lower() in reply or "hint" in reply for missed, reply in zip(wrong, since)):
            return told, any(wrong)
        return None, False
    return None, False


def _told(riddle: Riddle, reply: str) -> bool:
    """Whether ``reply`` told ``riddle``: its first words, as the model may end it in words of its own."""
    return riddle.asks[:30].lower() in reply.lower()


def _answered(riddle: Riddle, reply: str) -> bool:
    """Whether ``reply`` gave ``riddle``'s answer: its why, which every answer says."""
    return riddle.why[:30].lower() in reply.lower()
