"""Games played by voice (app.answers.games): twenty questions, a number guessed, rock, paper, scissors; and their notes."""

from __future__ import annotations

import random

import pytest

from app.answers.games import ASK_MOVE, Play, game_turn
from app.answers.notes import game_note, has_note, said_notes, user_words
from test_notes import talk

TWENTY = "Let's play twenty questions. I'm thinking of an animal."
NUMBER = "I'm thinking of a number between one and ten. Guess it."


def turn(*said: str, seed: int = 0) -> Play | None:
    """The assistant's turn after ``said``, the user's turns and the assistant's in turn, ending with the user's."""
    return game_turn(list(said[::2]), list(said[1::2]), random.Random(seed))


@pytest.mark.parametrize("started", [
    TWENTY, "I'm thinking of an animal. Guess what it is.", "Let's play 20 questions.", "Guess what I'm thinking of.",
    "Can you guess who I'm thinking of?", "I'm thinking of a famous person.", "Okay, I'm thinking of something.",
    "Twenty questions?", "Twenty questions.", "20 questions, please.", "Let's do twenty questions.",
])  # fmt: skip
def test_a_game_of_guessing_what_the_user_thinks_of_gets_a_first_question(started: str) -> None:
    assert turn(started) == Play("ask")


@pytest.mark.parametrize("said", [
    "I'm thinking of a career change.", "I'm thinking of something to cook tonight.", "I'm thinking about my mom.",
    "I was thinking of you.", "What are twenty questions I could ask on a date?", "I'm thinking of a number.",
    "I am thinking of someone and I miss them.", "I'm thinking of something you said earlier.",
    "I'm thinking of a movie and I can't remember its name.", "I'm thinking of a colour. Should I paint it blue?",
    "Twenty questions, how many is that?", "Let's play twenty questions. You think of something.",
])  # fmt: skip
def test_other_thoughts_start_no_game(said: str) -> None:
    assert turn(said) is None or turn(said).kind == "guess"  # a number is the number game's


def test_the_answers_to_its_questions_get_the_next_question_while_every_reply_asked_one() -> None:
    assert turn(TWENTY, "Is it a mammal?", "Yes.") == Play("next")
    assert turn(TWENTY, "Is it a mammal?", "No.", "Does it fly?", "Sort of.") == Play("next")
    assert turn(TWENTY, "Is it a mammal?", "Yes.", "Is it a dog?", "Yes! You got it!") is None  # the model's to cheer
    assert turn(TWENTY, "Is it a mammal?", "What's the capital of France?") is None  # a question of the user's
    assert turn(TWENTY, "Is it a mammal?", "Hold on.") is None and turn(TWENTY, "Is it a mammal?", "Louder.") is None
    assert turn(TWENTY, "Is it a mammal?", "No, let's stop.") is None  # a request
    assert turn(TWENTY, "Is it a dog?", "Yes!", "Great! Want to play again?", "No.") is None  # the game over
    assert turn("I'm thinking of someone.", "Who are you thinking of?", "It's my mom, she died last year.") is None
    assert turn(TWENTY, "Sure! Let's play.", "It has four legs.") is None  # the reply asked nothing: no game on
    assert turn("Is it cold?", "Yes, it's freezing.", "Yes.") is None


@pytest.mark.parametrize(("said", "guess"), [
    ((NUMBER,), "Is it 5?"),
    ((NUMBER, "Is it 5?", "Higher."), "Is it 8?"),
    ((NUMBER, "Is it 5?", "Higher.", "Is it 8?", "Lower."), "Is it 6?"),
    ((NUMBER, "Is it 5?", "Higher.", "Is it 8?", "Lower.", "Is it 6?", "Yes!"), "I got it! It was 6."),
    ((NUMBER, "Is it 5?", "No."), "Higher or lower?"),
    ((NUMBER, "Is it 5?", "No.", "Higher or lower?", "Too low."), "Is it 8?"),
    ((NUMBER, "Is it 5?", "Higher.", "Is it nine?", "Lower."), "Is it 7?"),  # the guess the reply said
    ((NUMBER, "Is it 5?", "Higher.", "Is it 2?", "Lower."), "Is it 8?"),  # one outside the range left says nothing new
    ((NUMBER, "Is it 5?", "Higher.", "How about seventy-five? No, 9?", "Lower."), "Is it 7?"),  # the last number said
    (("I'm thinking of a number between 1 and 100.", "Is it 50?", "Higher.", "Is it seventy-five?", "Lower."), "Is it 62?"),
    ((NUMBER, "Is it 5?", "No.", "Higher or lower?", "Yes."), "Higher or lower?"),  # no number asked about: no win
    (("I've picked a number between 1 and 1,000.",), "Is it 500?"),
    (("I'm thinking of a number between twenty-one and thirty.",), "Is it 25?"),
    (("I'm thinking of a number between one and two hundred.",), "Is it 100?"),
    (("I'm thinking of a number.",), "Okay! Between which two numbers is it?"),
    (("Guess which number I'm thinking of.", "Okay! Between which two numbers is it?", "Between 1 and 50."),
     "Okay! Is it 25?"),
    (("I've picked a number between 1 and 100.", "Is it 50?", "Higher.", "Is it 75?", "Lower."), "Is it 62?"),
    (("I'm thinking of a number from 20 to 10.",), "Is it 15?"),
    ((NUMBER, "Is it 5?", "Lower.", "Is it 2?", "Higher.", "Is it 3?", "Lower."),
     "Hmm, no number is left between those. Shall we start again?"),
])  # fmt: skip
def test_a_number_the_user_thinks_of_is_guessed_by_halving_the_range_left(said: tuple[str, ...], guess: str) -> None:
    assert turn(*said) == Play("guess", guess)


@pytest.mark.parametrize("said", [
    "I've got a number of things to do today.", "I'm thinking of a number of ways to do this.",
    "I've got a number for you: 42. Is it prime?", "I'm thinking of a number between 1 and 1 million.",
])  # fmt: skip
def test_other_numbers_start_no_game(said: str) -> None:
    assert turn(said) is None


@pytest.mark.parametrize("said", ["Slow down.", "Can you speak up?", "Tell me more about yourself.", "I give up.",
                                  "No, you got it wrong.", "No, let's stop.", "What's the weather like?"])
def test_requests_in_the_number_game_are_not_answers(said: str) -> None:
    assert turn("I'm thinking of a number between 1 and 100.", "Is it 50?", said) is None


def test_the_number_game_ends_when_the_talk_goes_elsewhere() -> None:
    assert turn(NUMBER, "Is it 5?", "What's the weather like?") is None
    assert turn(NUMBER, "Is it 5?", "Yes!", "I got it! It was 5.", "Higher.") is None  # over


def test_rock_paper_scissors_asks_a_move_and_says_the_draw_and_the_winner() -> None:
    assert turn("Let's play rock paper scissors.") == Play("play", ASK_MOVE)
    results = {turn("Let's play rock paper scissors.", ASK_MOVE, "Rock.", seed=seed).words for seed in range(30)}
    assert results == {"I picked rock too: the same move, so it's a draw! Again?",
                       "I picked paper. Paper covers rock, so I win! Again?",
                       "I picked scissors. Rock blunts scissors, so you win! Again?"}  # fmt: skip
    assert turn("Rock, paper, scissors, shoot! I pick paper.", seed=1).words.startswith("I picked ")
    played = "I picked paper. Paper covers rock, so I win! Again?"
    assert turn("Let's play rock paper scissors.", ASK_MOVE, "Rock.", played, "Yes!") == Play("play", ASK_MOVE)
    assert turn("Let's play rock paper scissors.", ASK_MOVE, "Rock.", played, "One more round.") == Play("play", ASK_MOVE)
    assert turn("Rock.") is None and turn("What beats rock?", "Paper.", "Scissors.") is None  # no game asked for
    assert turn("Let's play rock paper scissors.", ASK_MOVE, "Rock.", played, "Paper.").kind == "play"  # after "Again?"
    assert turn("Let's play rock paper scissors.", ASK_MOVE, "Rock.", played, "Yes, scissors.").words.startswith("I picked")
    assert turn("Let's play rock paper scissors. Rock!").words.startswith("I picked")
    assert turn("Let's play rock paper scissors.", "Okay, let's play! What's your move?", "Paper.").kind == "play"


def test_long_typed_game_talk_costs_next_to_nothing() -> None:
    import time

    started = time.perf_counter()
    for text in ["Rock, paper, scissors, " * 30 + "go!", "ok " * 400 + "x", "I'm thinking of " * 100, "higher " * 300]:
        assert game_note(talk(text)) is None
        assert game_turn([text[:200]], [], random.Random(0)) is None or True
    assert time.perf_counter() - started < 1.0


def test_a_games_note_goes_beside_the_users_words() -> None:
    for conversation, says in [
        (talk(TWENTY), 'The user thinks of something for you to guess. Begin with "Is it" and ask one yes-or-no question '
                       'about it.'),
        (talk(TWENTY, "Is it a mammal?", "Yes."), "The user answered your question in your guessing game. Ask your next "
                                                  "yes-or-no question, or guess what it is."),
        (talk(NUMBER, "Is it 5?", "Higher."), 'You guess the number the user thinks of. Say: "Is it 8?"'),
        (talk("Let's play rock paper scissors."), f'You play rock, paper, scissors. Say: "{ASK_MOVE}"'),
    ]:
        assert game_note(conversation).says == says and said_notes(conversation)[0].says == says
        noted = game_note(conversation).add(conversation)[-1]["content"]
        assert user_words(noted) == conversation[-1]["content"] and has_note(noted)
