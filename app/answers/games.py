"""Games played by voice: the assistant guesses what the user thinks of or a number they picked, or plays rock, paper,
scissors.

Asked to play, the 1.5B declined ("I'm thinking of an animal. Guess what it is." -> "I'm sorry, I can't guess what
animal it is.") or asked the user to give the answer away ("Let's play twenty questions. I'm thinking of an animal."
-> "What's your animal?"); it said "Scissors." to "Rock." without a winner, or "I'm sorry, I can't play rock paper
scissors." (docs/benchmarks.md, "Games"). What it is asked to do is read from the conversation: in twenty questions
it asks a yes-or-no question and then the next; a number the user picked it guesses by halving the range the user's
"Higher." and "Lower." leave (each about the number the reply before it said); in rock, paper, scissors the server
draws its move and says who won.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Literal

from app.answers.arithmetic import NUMBER_WORDS, NUMBER_WORDS_PATTERN
from app.answers.wording import REQUEST_END, REQUEST_START, plain

_LEAD = r"^(?:(?:ok|okay|so|hey|um|alright|right|now|yes|yeah|sure)[,.!]? )*"
# the user thinks of something for the assistant to guess
_THINKS = re.compile(
    rf"{_LEAD}(?:(?:(?:let's|can we|shall we|could we|do you want to|wanna|i want to) play )?(?:twenty|20) questions"
    r"(?: with me)?(?:[,.!?]+(?: |$)|$)|(?:i'm|i am) thinking (?:of|about) (?:(?:a|an) (?:famous )?(?:animal|thing|person"
    r"|place|food|object|celebrity|character|country|city|word|colou?r|fruit|vegetable|movie|film|sport|bird|fish|insect"
    r"|toy|cartoon|superhero|instrument)|something|someone|somebody)(?=[,.!?]|$| (?:and|you|now)\b)"
    r"|(?:can you |try to |you )?guess (?:what|who|which \w+) (?:i'm|i am) thinking (?:of|about))",
    re.I,
)
_NUMBER_THOUGHT = re.compile(
    rf"(?:i'm|i am|i've|i have) (?:thinking of|thought of|picked|chosen|got) a (?:whole )?number(?: (?:between|from) "
    rf"(?P<low>\d{{1,4}}|{NUMBER_WORDS_PATTERN}) (?:and|to) (?P<high>\d{{1,4}}|{NUMBER_WORDS_PATTERN}))?",
    re.I,
)
# a yes-or-no answer to a question of the game, or a word more about the thing: short, and no question of the user's
_ANSWERED = re.compile(
    r"^(?:yes|yeah|yep|yup|no|nope|nah|maybe|sort of|kind of|sometimes|usually|probably|possibly|not really|not exactly"
    r"|not always|i don't know|i'm not sure|not sure|it (?:is|isn't|does|doesn't|can|can't|has|hasn't|was|lives|eats)"
    r"|it's|they|a little|partly|both|neither|correct|right|wrong|close|warmer|colder)\b[\w' ,.!-]{0,60}$",
    re.I,
)
_HIGHER = re.compile(r"\b(?:higher|bigger|larger|more|too low|go up|up)\b", re.I)
_LOWER = re.compile(r"\b(?:lower|smaller|less|too high|go down|down)\b", re.I)
_YES = re.compile(r"^(?:yes|yeah|yep|sure|ok|okay|why not|let's go|go on)\b[\w' ,.!]*$", re.I)
_WON = re.compile(r"\b(?:you got it|you guessed it|that's it|that's right|correct|bingo|well done|you win|you won)\b", re.I)
_GOT_IT = re.compile(rf"^(?:yes|yeah|yep|yup|exactly|right)\b|{_WON.pattern}", re.I)  # the number guessed
_NO = re.compile(r"^(?:no|nope|nah|wrong|not quite|incorrect|guess again|try again)\b", re.I)
_MOVES = ("rock", "paper", "scissors")
_BEATS = {"rock": "scissors", "paper": "rock", "scissors": "paper"}
_HOW = {"rock": "Rock blunts scissors", "paper": "Paper covers rock", "scissors": "Scissors cut paper"}
_RPS_ASKED = re.compile(rf"{REQUEST_START}(?:(?:let's|can we|shall we|do you want to|wanna) )?(?:play )?(?:a game of )?"
                        rf"rock,? paper,? (?:(?:and|or) )?scissors(?: with me)?(?: again)?{REQUEST_END}", re.I)  # fmt: skip
_MOVE = re.compile(r"^(?:(?:rock,? paper,? scissors,?(?: shoot)?|one,? two,? three|ok|okay|um|then|and)[,.!]* )*"
                   r"(?:i (?:pick|choose|play|go with|throw|say)|my move is|i'll (?:go with|pick|play|take))? ?"
                   r"(?P<move>rock|paper|scissors)[.!]*$", re.I)  # fmt: skip
_AGAIN = re.compile(r"^(?:(?:ok|okay|yes|yeah|sure|haha|wow|oh)[,.!]* )*(?:(?:let's |can we )?(?:play )?(?:again|one more"
                    r"(?: time| round)?|another (?:round|game))|rematch)(?:,? please)?[.!?]*$", re.I)  # fmt: skip
ASK_MOVE = "Okay! Rock, paper or scissors: what's your move?"
GAME_TALK = re.compile("|".join(pattern.pattern for pattern in (_THINKS, _NUMBER_THOUGHT, _RPS_ASKED, _MOVE, _AGAIN, _YES,
                                                                  _ANSWERED, _HIGHER, _LOWER, _GOT_IT, _NO)), re.I)


@dataclass(frozen=True)
class Play:
    """The assistant's turn in a game: "ask" the first yes-or-no question about what the user thinks of, "next" the
    next one after their answer, "guess" the number ``words`` says, or "play" the move and result ``words`` say."""

    kind: Literal["ask", "next", "guess", "play"]
    words: str = ""


def game_turn(users: list[str], replies: list[str], draws: random.Random) -> Play | None:
    """The assistant's turn where the newest of ``users`` (the user's messages, oldest first; ``replies`` the
    assistant's) starts or goes on with a game; else None."""
    text = plain(users[-1]) if users and len(users[-1]) <= 200 else ""
    if not text:
        return None
    if said := _rps_turn(text, replies, draws):
        return Play("play", said)
    if guess := _number_guess([plain(user) for user in users[-12:]], replies[-11:]):
        return Play("guess", guess)
    if _THINKS.search(text) and not _NUMBER_THOUGHT.search(text):
        return Play("ask")
    if _WON.search(text) or not _ANSWERED.search(text):
        return None  # "You got it!": the model's to cheer
    return Play("next") if _guessing_on(users, replies) else None


def _rps_turn(text: str, replies: list[str], draws: random.Random) -> str | None:
    last = replies[-1] if replies else ""
    played = any(how in last for how in (*_HOW.values(), "same move"))
    if _RPS_ASKED.search(text) or (played and (_AGAIN.search(text) or _YES.search(text))):
        return ASK_MOVE
    move = _MOVE.search(text)
    if move is None or not (ASK_MOVE in last or re.search(r"rock,? paper,? scissors", text, re.I)):
        return None
    theirs, mine = move["move"].lower(), draws.choice(_MOVES)
    if theirs == mine:
        return f"I picked {mine} too: the same move, so it's a draw! Again?"
    winner, loser = (theirs, mine) if _BEATS[theirs] == mine else (mine, theirs)
    return f"I picked {mine}. {_HOW[winner]}, so {'you win' if winner == theirs else 'I win'}! Again?"


def _number_guess(users: list[str], replies: list[str]) -> str | None:
    """The next guess at the number the user thinks of, halving the range their answers since leave (an answer about
    the number the reply before it guessed, where it said one in the range, else the one worked out); None where no
    such game is on, or it is over."""
    start = next((i for i in range(len(users) - 1, -1, -1) if _NUMBER_THOUGHT.search(users[i])), None)
    if start is None:
        return None
    found = _NUMBER_THOUGHT.search(users[start])
    low, high = sorted((_number(found["low"]), _number(found["high"]))) if found["low"] else (1, 10)
    answers = users[start + 1 :]
    asked = replies[len(replies) - len(answers) :] if answers else []  # the reply before each answer
    for i, said in enumerate(answers):
        last, guess = i == len(answers) - 1, _guessed(asked[i], low, high) if i < len(asked) else None
        guess = (low + high) // 2 if guess is None else guess
        higher, lower = _HIGHER.search(said) is not None, _LOWER.search(said) is not None
        if higher == lower:  # neither, or both
            if _GOT_IT.search(said):
                return f"I got it! It was {guess}." if last else None
            if _NO.search(said) and last:
                return "Higher or lower?"
            if not _NO.search(said):
                return None  # the talk went elsewhere
        elif higher:
            low = guess + 1
        else:
            high = guess - 1
        if low > high:
            return "Hmm, no number is left between those. Shall we start again?" if last else None
    return f"Is it {(low + high) // 2}?"  # in digits: given "eight", the model said "nine" 5 times in 8


def _guessed(reply: str, low: int, high: int) -> int | None:
    """The number ``reply`` guessed ("Is it nine?"), where it is one from ``low`` to ``high``."""
    found = re.search(rf"\bis it (\d{{1,4}}|{NUMBER_WORDS_PATTERN})\b", reply, re.I)
    number = _number(found[1]) if found else None
    return number if number is not None and low <= number <= high else None


def _guessing_on(users: list[str], replies: list[str]) -> bool:
    """Whether a game of guessing what the user thinks of is on: started in one of the last user messages, and every
    reply since asked a question."""
    for back in range(1, min(len(users) - 1, len(replies), 20) + 1):  # users[-1 - back] and the reply to it
        if not replies[-back].rstrip().endswith("?"):
            return False
        if _THINKS.search(plain(users[-1 - back])):
            return True
    return False


def _number(said: str) -> int:
    return int(said) if said.isdigit() else NUMBER_WORDS[said.lower()]
