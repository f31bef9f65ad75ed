"""Riddles drawn by the server, and what follows one (app.answers.riddles), and their place beside the user's words."""

from __future__ import annotations

import random

import pytest

from app.answers.notes import GIVE_UP_NOTE, has_note, more_note, riddle_note, said_notes, user_words
from app.answers.riddles import RIDDLES, FollowUp, riddle_follow_up, riddle_heard, riddle_to_tell
from test_notes import talk

PIANO = next(riddle for riddle in RIDDLES if riddle.answer == "a piano")
TOLD = f"Here's one: {PIANO.asks}"


@pytest.mark.parametrize("asked", [
    "Tell me a riddle.", "Give me a riddle.", "Can you tell me a riddle?", "Ask me a riddle.", "Let's do a riddle.",
    "Another riddle, please.", "Can I have a riddle?", "Give me a hard riddle.", "Okay, tell us a riddle!", "Riddle?",
    "Do you know any riddles?", "Do you have a riddle for me?", "Let's play riddles.",
])  # fmt: skip
def test_a_riddle_asked_for_is_drawn_from_the_riddles(asked: str) -> None:
    assert riddle_to_tell(asked, [], random.Random(0)) in {riddle.asks for riddle in RIDDLES}
    note = riddle_note(talk(asked), random.Random(0))
    assert note.says.startswith('Begin with "Yes! Here\'s one:"' if asked.startswith("Do you") else 'Begin with "Here\'s one:"')


@pytest.mark.parametrize("asked", [
    "Tell me a riddle about cats.",  # a subject: the model's to make
    "I love riddles.", "What's a riddle?", "Please make up a riddle for my kids.", "Another one.", "I give up.",
    "Is it a shadow?", "A piano?",
])  # fmt: skip
def test_other_messages_without_a_riddle_told_get_none(asked: str) -> None:
    replies = ["The capital of France is Paris."]
    assert riddle_to_tell(asked, replies, random.Random(0)) is None and riddle_follow_up(asked, replies) is None


def test_each_riddle_drawn_is_one_not_told_yet_in_the_conversation() -> None:
    replies: list[str] = []
    for _ in RIDDLES:
        replies.append(f"Here's one: {riddle_to_tell('Another riddle.', replies, random.Random(len(replies)))}")
    assert len(set(replies)) == len(RIDDLES)
    assert f"Here's one: {riddle_to_tell('Another riddle.', replies, random.Random(0))}" in replies  # all told: any


@pytest.mark.parametrize(("follow", "kind", "said"), [
    ("I give up.", "answer", f"The answer is a piano. {PIANO.why}"),
    ("I don't know. What is it?", "answer", f"The answer is a piano. {PIANO.why}"),
    ("Tell me the answer.", "answer", f"The answer is a piano. {PIANO.why}"),
    ("Give me a hint.", "hint", PIANO.hint), ("Can I have a clue?", "hint", PIANO.hint), ("Hint, please.", "hint", PIANO.hint),
    ("Is it a piano?", "right", f"Yes, that's right! It's a piano. {PIANO.why}"),
    ("Hmm, a keyboard?", "right", f"Yes, that's right! It's a piano. {PIANO.why}"),
    ("Pianos!", "right", f"Yes, that's right! It's a piano. {PIANO.why}"),
    ("I think it's a piano.", "right", f"Yes, that's right! It's a piano. {PIANO.why}"),
    ("Is it a shadow?", "wrong", "Not quite! Have another guess, or ask me for a hint."),
    ("I think it's a door.", "wrong", "Not quite! Have another guess, or ask me for a hint."),
    ("Maybe a book?", "wrong", "Not quite! Have another guess, or ask me for a hint."),
    ("Any hints?", "hint", PIANO.hint), ("Pianos?", "right", f"Yes, that's right! It's a piano. {PIANO.why}"),
    ("Is it a grand piano?", "right", f"Yes, that's right! It's a piano. {PIANO.why}"),
    ("A typewriter?", "right", f"Yes, that works too! I was thinking of a piano. {PIANO.why}"),
    ("A clock tower?", "wrong", "Not quite! Have another guess, or ask me for a hint."),
])  # fmt: skip
def test_what_follows_a_riddle_told_gets_its_answer_hint_or_verdict(follow: str, kind: str | None, said: str | None) -> None:
    expected = FollowUp(kind, said) if kind else None
    assert riddle_follow_up(follow, ["Hello!", TOLD]) == expected
    assert riddle_follow_up(follow, [f"Sure! {PIANO.asks[:-1]}, and what am I?"]) == expected  # in the model's words


@pytest.mark.parametrize(("answer", "guess"), [
    ("in the dictionary", "In the dictionary?"), ("in the dictionary", "Dictionaries?"), ("silence", "Is it silence?"),
    ("silence", "It's silence."), ("light", "Is it light?"), ("your age", "Is it my age?"), ("a clock", "Watches?"),
    ("the letter M", "The letter M!"), ("all of them", "All of them?"), ("all of them", "Every month!"),
])  # fmt: skip
def test_a_right_guess_is_right_in_any_form(answer: str, guess: str) -> None:
    riddle = next(riddle for riddle in RIDDLES if riddle.answer == answer)
    assert riddle_follow_up(guess, [f"Here's one: {riddle.asks}"]).kind == "right"


@pytest.mark.parametrize(("answer", "guess"), [
    ("a piano", "Not a piano?"), ("all of them", "All but February?"), ("silence", "Be quiet!"),
    ("a clock", "Watch out!"),
])  # fmt: skip
def test_a_guess_that_names_the_answer_to_deny_it_is_none(answer: str, guess: str) -> None:
    riddle = next(riddle for riddle in RIDDLES if riddle.answer == answer)
    follow_up = riddle_follow_up(guess, [f"Here's one: {riddle.asks}"])
    assert follow_up is None or follow_up.kind != "right"


def test_a_second_wrong_guess_gets_the_answer_and_a_hint_gives_another_try() -> None:
    wrong = "Not quite! Have another guess, or ask me for a hint."
    assert riddle_follow_up("A door?", [TOLD, wrong]) == FollowUp("wrong", f"Not quite. The answer is a piano. {PIANO.why}")
    assert riddle_follow_up("A door?", [TOLD, f"Here's a hint: {PIANO.hint}"]) == FollowUp("wrong", wrong)
    assert riddle_follow_up("I give up.", [TOLD, PIANO.hint]).kind == "answer"  # the hint without its first words
    assert riddle_follow_up("I give up.", [TOLD, "Here's a hint: it's black and white."]).kind == "answer"  # a hint of its own
    answered = f"The answer is a piano. {PIANO.why}"
    assert riddle_follow_up("A piano?", [TOLD, answered]) is None  # answered: over
    assert riddle_to_tell("Another one.", [TOLD, answered], random.Random(0)) not in (None, PIANO.asks)
    assert riddle_to_tell("Another one.", [TOLD], random.Random(0)) not in (None, PIANO.asks)
    assert riddle_to_tell("Another one.", ["Why did the chicken cross the road?"], random.Random(0)) is None  # a joke's


@pytest.mark.parametrize("follow", [
    "What's the capital of France?", "That's too hard.", "Can you repeat that?", "Haha, what?", "Thanks!", "Yes.",
    "Why is it a piano?", "I love it.", "No.", "It's raining here.", "It's my birthday today!", "Lovely!", "Speak up!",
    "Anything else?", "Is it cold outside?", "Is it going to rain?", "Count to ten.", "Goodbye.", "And Germany?",
    "My bad.", "My goodness!", "A classic!", "The best!", "Your turn.", "My mistake.", "The same.", "A lot.", "The end.",
    "Seriously?", "Maybe not.", "Maybe later.", "Maybe?", "Wait a minute!", "Oh my god!", "Hmmm?", "Something easier?",
    "Solution?", "Weather?", "Never mind?", "Quit?", "Speak up?", "Testing?", "Mic check?", "Flip a coin?", "Roll a die?",
    "Slow down?", "Speed up?", "Is it a musical instrument?", "An instrument?", "Is it a thing?", "France?",
])  # fmt: skip
def test_other_messages_after_a_riddle_are_the_models(follow: str) -> None:
    assert riddle_follow_up(follow, [TOLD]) is None and riddle_to_tell(follow, [TOLD], random.Random(0)) is None


@pytest.mark.parametrize(("asked", "answer"), [
    *((riddle.asks, riddle.answer) for riddle in RIDDLES),
    ("How many months have 28 days?", "all of them"), ("which months have twenty-eight days", "all of them"),
    ("How many months of the year have 28 days?", "all of them"),
    ("What has keys but cannot open locks?", "a piano"), ("What has keys but can not open a lock?", "a piano"),
    ("Here's a riddle: what has hands but can't clap?", "a clock"), ("Riddle me this: what has a neck but no head?", "a bottle"),
    ("Okay, I have a riddle for you. What has an eye but can't see?", "a needle"),
    ("What has a thumb and four fingers but is not alive?", "a glove"), ("What gets wet while it dries?", "a towel"),
    ("The more you take, the more you leave behind.", "footsteps"),
])  # fmt: skip
def test_a_riddle_the_user_asks_gets_its_answer(asked: str, answer: str) -> None:
    riddle = riddle_heard(asked, ["Hi! How can I help?"])
    assert riddle is not None and riddle.answer == answer
    note = riddle_note(talk("Hello.", "Hi! How can I help?", asked))
    assert note is not None and note.says == f'The user asks you a riddle. Say: "The answer is {answer}. {riddle.why}"'
    noted = note.add(talk(asked))[-1]["content"]
    assert user_words(noted) == asked and has_note(noted)


@pytest.mark.parametrize("asked", [
    "How many days are in a month?", "Which months have 31 days?", "How many months have 30 days?", "What has keys?",
    "Why can't I clap my hands?", "What has teeth but can bite?", "What building has the most floors?",
    "Tell me what has keys but can't open a lock and why.", "What has keys but can't open a lock in a song?",
])  # fmt: skip
def test_other_questions_are_no_riddle_heard(asked: str) -> None:
    assert riddle_heard(asked, []) is None and riddle_note(talk(asked)) is None


def test_a_riddle_told_and_said_again_by_the_user_is_not_given_away() -> None:
    assert riddle_heard(PIANO.asks, [TOLD]) is None
    assert riddle_note(talk("Tell me a riddle.", TOLD, "What has keys but can't open a lock?")) is None


def test_a_riddle_over_when_the_talk_went_elsewhere() -> None:
    assert riddle_follow_up("I give up.", [TOLD, "Paris is the capital of France."]) is None


def test_the_riddle_and_what_follows_go_beside_the_users_words() -> None:
    asked = talk("Tell me a riddle.")
    note = riddle_note(asked, random.Random(0))
    riddle = riddle_to_tell("Tell me a riddle.", [], random.Random(0))
    assert note.says == f'Begin with "Here\'s one:" and ask this riddle, without its answer: "{riddle}"'
    noted = note.add(asked)[-1]["content"]
    assert user_words(noted) == "Tell me a riddle." and has_note(noted)
    for follow, says in [("I give up.", f'Say: "The answer is a piano. {PIANO.why}"'),
                         ("A piano?", f'The guess is right. Say: "Yes, that\'s right! It\'s a piano. {PIANO.why}"'),
                         ("A door?", 'The guess is not the answer. Say: "Not quite! Have another guess, or ask me for a hint."'),
                         ("Give me a hint.", f'Begin with "Here\'s a hint:" and say: "{PIANO.hint}"')]:
        conversation = talk("Tell me a riddle.", TOLD, follow)
        assert said_notes(conversation)[0].says == says
        noted = said_notes(conversation)[0].add(conversation)[-1]["content"]
        assert user_words(noted) == follow and has_note(noted)
    assert more_note(talk("Tell me a riddle.", "What has four legs?", "I give up.")) is GIVE_UP_NOTE  # the model's own
    assert riddle_note(talk("Tell me a riddle.", "What has four legs?", "I give up.")) is None
