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

from app.answers.arithmetic import NUMBER_WORDS_PATTERN, number_said
from app.answers.wording import REQUEST_END, REQUEST_START, plain

_LEAD = r"^(?:(?:ok|okay|so|hey|um|alright|right|now|yes|yeah|sure)[,.!]? )*"
_THING = (r"(?:(?:a|an) (?:famous )?(?:animal|thing|person|place|food|object|celebrity|character|country|city|word"
          r"|colou?r|fruit|vegetable|movie|film|sport|bird|fish|insect|toy|cartoon|superhero|instrument)|something|someone"
          r"|somebody)")
# the user thinks of something for the assistant to guess: the whole message, or a request to guess after it
_THINKS = re.compile(
    rf"{_LEAD}(?:(?:(?:let's|can we|shall we|could we|do you want to|wanna|i want to) (?:play|do) )(?:twenty|20) questions"
    r"(?: with me)?[.!?]*(?: |$)|(?:twenty|20) questions(?:,? please)?[?!.]*$"
    rf"|(?:i'm|i am) thinking (?:of|about) {_THING}(?:[.!]*$|[,.!]* (?:and )?(?:now )?(?:can you |try to |you (?:have to "
    r"|can |must )?)?guess\b[^?]*\?*$)|(?:can you |try to |you )?guess (?:what|who) (?:i'm|i am) thinking (?:of|about)\b)",
    re.I,
)
_ROLES_SWAPPED = re.compile(r"\byou (?:think|pick|choose|go first)\b|\bi'll guess\b|\bi guess\b", re.I)
_NUMBER = r"(?:minus |-)?(?:\d{1,3}(?:,\d{3})+|\d{1,7}|[a-z]+(?:[ -][a-z]+){0,3}?)"
_NUMBER_THOUGHT = re.compile(
    r"(?:i'm|i am|i've|i have) (?:thinking of|thought of|picked|chosen|got) a (?:whole )?number(?! of)"
    rf"(?: (?:between|from) (?P<low>{_NUMBER}) (?:and|to) (?P<high>{_NUMBER}))?(?=[,.!?]|$| (?:and|can|could|try|guess)\b)"
    r"|guess (?:which|what) number (?:i'm|i am) thinking of",
    re.I,
)
_RANGE_GIVEN = re.compile(rf"^(?:it's |it is )?(?:between|from) (?P<low>{_NUMBER}) (?:and|to) (?P<high>{_NUMBER})[.!]*$", re.I)
ASK_RANGE = "Okay! Between which two numbers is it?"
_LARGEST_RANGE = 10**6
# a yes-or-no answer to a question of the game, or a few words more about the thing, and no question or request
_ANSWERED = re.compile(
    r"^(?!.*\b(?:stop|quit|else|joke|bored|boring|tired|enough|play|game|done|finish|help|tell me|let's)\b)"
    r"(?:yes|yeah|yep|yup|no|nope|nah|maybe|sort of|kind of|sometimes|usually|probably|possibly|not really|not exactly"
    r"|not always|i don't know|i'm not sure|not sure|it (?:is|isn't|does|doesn't|can|can't|has|hasn't|was|lives|eats)"
    r"|it's|they|a little|partly|both|neither|correct|right|wrong|close|warmer|colder)\b(?:[,!]? [\w'-]+){0,4}[.!]*$",
    re.I,
)
_GAME_OVER = re.compile(r"\b(?:play again|another game|got it|guessed it|i win|you win|anything else|new game)\b", re.I)
_HIGHER = re.compile(r"^(?:(?:no|nope|nah|wrong|not quite)[,.!]* )?(?:it's |go |try |a bit |a little |much |way |even )*"
                     r"(?:higher|bigger|larger|more|up)(?: than that)?[.!]*$|^too (?:low|small)[.!]*$", re.I)  # fmt: skip
_LOWER = re.compile(r"^(?:(?:no|nope|nah|wrong|not quite)[,.!]* )?(?:it's |go |try |a bit |a little |much |way |even )*"
                    r"(?:lower|smaller|less|down)(?: than that)?[.!]*$|^too (?:high|big)[.!]*$", re.I)  # fmt: skip
_RIGHT = r"correct|bingo|that's it|that's right|you got it|you guessed it|well done"  # said to a right guess
_GOT_IT = re.compile(rf"^(?:yes|yeah|yep|yup|exactly|right|{_RIGHT})\b", re.I)  # to the number guessed
_WON = re.compile(rf"\b(?:{_RIGHT}|you win|you won)\b", re.I)
_NO = re.compile(r"^(?:no|nope|nah|wrong|not quite|incorrect|guess again|try again)[.!]*$", re.I)
_YES = re.compile(r"^(?:yes|yeah|yep|sure|ok|okay|why not|let's go|go on)\b[\w' ,.!]*$", re.I)
_MOVES = ("rock", "paper", "scissors")
_BEATS = {"rock": "scissors", "paper": "rock", "scissors": "paper"}
_HOW = {"rock": "Rock blunts scissors", "paper": "Paper covers rock", "scissors": "Scissors cut paper"}
_RPS = r"rock,? paper,? (?:(?:and|or) )?scissors"
_RPS_ASKED = re.compile(rf"{REQUEST_START}(?:(?:let's|can we|shall we|do you want to|wanna) )?(?:play |do )?(?:a game of )?"
                        rf"{_RPS}(?: with me)?(?: again)?{REQUEST_END}", re.I)  # fmt: skip
_MOVE = re.compile(rf"^(?:(?:(?:let's )?(?:play )?{_RPS}(?:,? shoot)?|one,? two,? three|ok|okay|um|then|and|yes|yeah|sure"
                   r"|again)[,.!]* )*(?:i (?:pick|choose|play|go with|throw|say)|my move is|i'll (?:go with|pick|play|take))?"
                   r" ?(?P<move>rock|paper|scissors)[.!]*$", re.I)  # fmt: skip
_AGAIN = re.compile(r"^(?:(?:ok|okay|yes|yeah|sure|haha|wow|oh)[,.!]* )*(?:(?:let's |can we )?(?:play )?(?:again|one more"
                    r"(?: time| round)?|another (?:round|game))|rematch)(?:,? please)?[.!?]*$", re.I)  # fmt: skip
ASK_MOVE = "Okay! Rock, paper or scissors: what's your move?"
GAME_TALK = re.compile(re.sub(r"\(\?P<\w+>", "(?:", "|".join(  # (without the names of their groups, which two share)
    pattern.pattern for pattern in (_THINKS, _NUMBER_THOUGHT, _RANGE_GIVEN, _RPS_ASKED, _MOVE, _AGAIN, _YES, _ANSWERED,
                                    _HIGHER, _LOWER, _GOT_IT, _NO))), re.I)  # fmt: skip


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
    if said := _rps_turn(text, replies[-1] if replies else "", draws):
        return Play("play", said)
    if guess := _number_guess([plain(user) for user in users], replies):
        return Play("guess", guess)
    if _THINKS.search(text) and not _ROLES_SWAPPED.search(text):
        return Play("ask")
    if _WON.search(text) or not _ANSWERED.search(text):
        return None  # "You got it!": the model's to cheer
    return Play("next") if _guessing_on(users, replies) else None


def _rps_turn(text: str, last: str, draws: random.Random) -> str | None:
    """The assistant's turn in rock, paper, scissors after ``last``, the last reply: a move asked for, or the server's
    move drawn and the result."""
    played = any(how in last for how in (*_HOW.values(), "same move"))
    if _RPS_ASKED.search(text):
        return ASK_MOVE
    move = _MOVE.search(text)
    if move is None or not (played or re.search(rf"your move|rock,? paper,? or scissors|{_RPS}", f"{last} {text}", re.I)):
        return ASK_MOVE if played and (_AGAIN.search(text) or _YES.search(text)) else None
    theirs, mine = move["move"].lower(), draws.choice(_MOVES)
    if theirs == mine:
        return f"I picked {mine} too: the same move, so it's a draw! Again?"
    winner = theirs if _BEATS[theirs] == mine else mine
    return f"I picked {mine}. {_HOW[winner]}, so {'you win' if winner == theirs else 'I win'}! Again?"


def _number_guess(users: list[str], replies: list[str]) -> str | None:
    """The next guess at the number the user thinks of, halving the range their answers since leave (each about the
    number the reply before it said, where that is in the range left); None where no such game is on, or it is over."""
    start = next((i for i in range(len(users) - 1, -1, -1) if _NUMBER_THOUGHT.search(users[i])
                  or (_RANGE_GIVEN.search(users[i]) and i > 0 and i - len(users) >= -len(replies)
                      and ASK_RANGE in replies[i - len(users)])), None)  # fmt: skip
    if start is None:
        return None
    found = _NUMBER_THOUGHT.search(users[start]) or _RANGE_GIVEN.search(users[start])
    if not found["low"]:
        return ASK_RANGE if start == len(users) - 1 else None
    ends = (number_said(found["low"]), number_said(found["high"]))
    if None in ends or any(end.denominator != 1 for end in ends) or abs(ends[1] - ends[0]) > _LARGEST_RANGE:
        return ASK_RANGE if start == len(users) - 1 else None
    low, high = sorted(int(end) for end in ends)
    answers = users[start + 1 :]
    asked = replies[len(replies) - len(answers) :] if answers else []  # the reply before each answer
    guess = None
    for i, said in enumerate(answers):
        last = i == len(answers) - 1
        guessed = _guessed(asked[i]) if i < len(asked) else None
        if guessed is not None:
            guess = guessed if low <= guessed <= high else None  # one outside the range left says nothing new
        elif guess is None:
            guess = (low + high) // 2
        higher, lower = _HIGHER.search(said) is not None, _LOWER.search(said) is not None
        if higher and guess is not None:
            low = guess + 1
        elif lower and guess is not None:
            high = guess - 1
        elif _GOT_IT.search(said) and guessed is not None:
            return f"I got it! It was {guessed}." if last else None
        elif _NO.search(said) or _GOT_IT.search(said):
            if last:
                return "Higher or lower?"
            continue
        elif not (higher or lower):
            return None  # the talk went elsewhere
        guess = None
        if low > high:
            return "Hmm, no number is left between those. Shall we start again?" if last else None
    first = "Okay! " if not answers and _RANGE_GIVEN.search(users[start]) else ""  # "No, it's not 10." to a bare guess
    return f"{first}Is it {(low + high) // 2}?"  # in digits: given "eight", the model said "nine" 6 times in 16


def _guessed(reply: str) -> int | None:
    """The number ``reply`` guessed ("Is it 9?", "How about seventy-five?"): the last one it says."""
    found = re.findall(rf"\b(\d{{1,3}}(?:,\d{{3}})+|\d{{1,7}}|(?:{NUMBER_WORDS_PATTERN})(?:[ -](?:{NUMBER_WORDS_PATTERN}|hundred"
                       rf"|thousand))*)\b", reply, re.I)  # fmt: skip
    number = number_said(found[-1]) if found else None
    return int(number) if number is not None and number.denominator == 1 else None


def _guessing_on(users: list[str], replies: list[str]) -> bool:
    """Whether a game of guessing what the user thinks of is on: started in one of the last user messages, and every
    reply since asked a question, none of them one that ends the game ("Want to play again?")."""
    for back in range(1, min(len(users) - 1, len(replies), 20) + 1):  # users[-1 - back] and the reply to it
        if not replies[-back].rstrip().endswith("?") or _GAME_OVER.search(replies[-back]):
            return False
        if _THINKS.search(plain(users[-1 - back])):
            return True
    return False
