"""A tongue twister drawn from well-known ones (app.answers.twisters), and a game offered where none is named."""

from __future__ import annotations

import random

import pytest

from app.answers.notes import (ANY_REPLY, GAME_OFFER_NOTE, SUGGEST_NOTE, add_first, has_note, said_notes, twister_note,
                               user_words)
from app.answers.twisters import TWISTERS, twister_to_say
from test_notes import talk


def test_every_twister_is_one_sentence_or_a_few_without_a_double_quote_or_a_declines_words() -> None:
    from app.bench.quality import matches
    from app.bench.quality_questions import DECLINES

    assert len(set(TWISTERS)) == len(TWISTERS) >= 15
    assert all(twister.endswith((".", "?")) and '"' not in twister for twister in TWISTERS)  # the note quotes them
    assert not [twister for twister in TWISTERS if matches(twister, [(said,) for said in DECLINES])]


@pytest.mark.parametrize("request_", [
    "Give me a tongue twister.", "Tell me a tongue twister.", "Do you know any tongue twisters?", "Say a tongue twister.",
    "Can you say a tongue twister?", "Another tongue twister, please.", "A tongue twister, please.", "Tongue twister!",
    "Teach me a hard tongue twister.", "I want to hear a tongue twister.", "Got any tongue twisters?",
    "How about a tongue twister?", "Okay, give me a tricky tongue-twister.", "Let's hear a tongue twister.",
    "Can you do a tongue twister?", "Do a tongue twister.", "Know any tongue twisters?", "I need a tongue twister.",
    "Give me a good tongue twister.", "Tell me a fun tongue twister.",
])  # fmt: skip
def test_a_tongue_twister_asked_for_is_drawn_and_said_first(request_: str) -> None:
    assert twister_to_say(request_, [], random.Random(0)) in TWISTERS
    note = said_notes(SUGGEST_NOTE.add(talk(request_)))[0]  # (the suggestion's note, first on the server: not for these)
    assert note.says.startswith('Begin with "Here\'s one:" and say this tongue twister: "')


@pytest.mark.parametrize("request_", [
    "What is a tongue twister?", "Tongue twisters are hard.", "Give me a tongue twister about cats.",
    "Why are tongue twisters hard to say?", "Another one.",
])  # fmt: skip
def test_other_messages_draw_no_tongue_twister(request_: str) -> None:
    assert twister_to_say(request_, [], random.Random(0)) is None


def test_twisters_are_not_said_twice_in_a_conversation_until_all_are() -> None:
    draws, replies = random.Random(1), []
    for _ in TWISTERS:
        replies.append(f"Here's one: {twister_to_say('Give me a tongue twister.', replies, draws)}")
    assert len(set(replies)) == len(TWISTERS)
    assert twister_to_say("Give me a tongue twister.", replies, draws) in TWISTERS


def test_another_one_after_a_twister_draws_the_next_and_after_anything_else_none() -> None:
    said = f"Here's one: {TWISTERS[0]}"
    assert twister_to_say("Another one.", [said], random.Random(0)) in set(TWISTERS) - {TWISTERS[0]}
    for said in (f'"{TWISTERS[0]}"', f"Sure! {TWISTERS[0]}", f"Okay, here is one: {TWISTERS[0]}"):
        assert twister_to_say("Another one.", [said], random.Random(0)) in set(TWISTERS) - {TWISTERS[0]}
    for reply in ("The capital of France is Paris.", "In the final seconds he made three free throws."):
        assert twister_to_say("Another one.", [reply], random.Random(0)) is None


def test_with_every_twister_said_another_one_is_any_but_the_last() -> None:
    replies = [f"Here's one: {twister}" for twister in TWISTERS]
    assert {twister_to_say("Another one.", replies, random.Random(seed)) for seed in range(200)} == set(TWISTERS[:-1])


def test_the_twister_drawn_is_said_as_the_models_own_and_comes_off_the_users_words() -> None:
    conversation = talk("Give me a tongue twister.")
    note = twister_note(conversation, random.Random(0))
    assert note is not None
    noted = note.add(conversation)[-1]["content"]
    assert user_words(noted) == "Give me a tongue twister." and has_note(noted)


@pytest.mark.parametrize("message", [
    "Let's play a game.", "Can we play a game?", "Do you want to play a game?", "Play a game with me.",
    "Do you know any games?", "I want to play a game.", "Let's play something.", "Wanna play a game?",
    "Hey, let's play a game!", "Can you play games?", "Shall we play a quick game?", "I'm bored, let's play a game.",
    "Do you know any fun games?", "Do you know any games we can play?", "Can we play a game or something?",
    "What games can we play?", "Know any games?", "So what games can we play?", "What games can we play together?",
    "What game can we play?", "Can we play something?",
])  # fmt: skip
def test_a_game_asked_for_without_its_name_gets_the_games_offered(message: str) -> None:
    messages = SUGGEST_NOTE.add([{"role": "user", "content": message}])  # (first on the server: not for these)
    noted = add_first((*said_notes(messages), *ANY_REPLY), messages)[-1]["content"]
    assert noted == message + GAME_OFFER_NOTE.note and "twenty questions" in GAME_OFFER_NOTE.says
    assert user_words(noted) == message


@pytest.mark.parametrize("message", [
    "Let's play a game of chess.", "Let's play a word game.", "I played a game yesterday.", "What game should I play?",
    "Let's play twenty questions.", "Play some music.", "Do you like games?", "Play something.", "Can you play something?",
    "Do you play video games?", "I want to play a game on my phone.", "What games should we play at the party?",
])  # fmt: skip
def test_a_game_named_or_other_talk_of_games_gets_no_offer(message: str) -> None:
    assert not GAME_OFFER_NOTE.finds(message)
