"""A joke drawn from those written down (app.answers.jokes), and what it plays on when the user does not get it."""

from __future__ import annotations

import random

import pytest

from app.answers.jokes import JOKES, joke_explained, joke_to_tell
from app.answers.notes import SUGGEST_NOTE, has_note, joke_note, said_notes, user_words
from test_notes import talk


def test_every_joke_has_a_punch_line_what_it_plays_on_and_no_double_quote() -> None:
    for joke in JOKES:
        setup, _, punch_line = joke.says.partition("? ")
        assert setup and punch_line and joke.plays_on.endswith(".") and joke.about
        assert '"' not in joke.says + joke.plays_on  # the notes quote them
        assert all(subject == subject.lower() for subject in joke.about)
    assert len({joke.says for joke in JOKES}) == len(JOKES) >= 30


def test_no_joke_says_what_a_decline_says() -> None:  # "Why can't you trust stairs?" was scored a decline by the bench
    from app.bench.quality import matches
    from app.bench.quality_questions import DECLINES

    assert not [joke for joke in JOKES if matches(f"{joke.says} {joke.plays_on}", [(said,) for said in DECLINES])]


@pytest.mark.parametrize("request_", [
    "Tell me a joke.", "Can you tell me a joke?", "Tell me a funny joke, please.", "Do you know any good jokes?",
    "Say something funny.", "Make me laugh.", "Can you make me laugh?", "Tell us something funny.", "A joke, please.",
    "Tell me a dad joke.", "Okay, tell me another joke.", "Tell me something to make me smile.", "Can you tell a joke?",
    "Do you have any jokes?", "Tell me jokes.", "Got any jokes?", "I want to hear a joke.", "Joke!",
    "I'd like to hear a joke about fish.", "Tell me a good joke.",
])  # fmt: skip
def test_a_joke_asked_for_is_drawn(request_: str) -> None:
    assert joke_to_tell(request_, [], random.Random(0)) in {joke.says for joke in JOKES}


def test_jokes_are_not_told_twice_in_a_conversation_until_all_are() -> None:
    draws, replies = random.Random(1), []
    for _ in JOKES:
        replies.append(f"Here's one: {joke_to_tell('Tell me a joke.', replies, draws)}")
    assert len(set(replies)) == len(JOKES)
    assert joke_to_tell("Tell me a joke.", replies, draws) in {joke.says for joke in JOKES}


@pytest.mark.parametrize(("request_", "word"), [
    ("Tell me a joke about cats.", "cat"), ("Do you know any jokes about dogs?", "dog"),
    ("Tell me a joke about my dog.", "dog"), ("Tell me a joke about school.", "school"),
    ("Tell me a joke about clothes.", "clothes"), ("A joke about maths, please.", "maths"),
    ("Tell me a joke about cats please.", "cat"), ("Tell me a joke about tomatoes.", "tomato"),
    ("Tell me a joke about mummies.", "mummy"), ("Tell me a joke about watches.", "watch"),
    ("Tell me a joke about snowmen.", "snowman"),
])  # fmt: skip
def test_a_joke_on_a_subject_is_one_about_it(request_: str, word: str) -> None:
    for seed in range(5):
        said = joke_to_tell(request_, [], random.Random(seed))
        assert said is not None and any(word in joke.about for joke in JOKES if joke.says == said)


@pytest.mark.parametrize("request_", [
    "Tell me a joke about taxes.", "I love jokes.", "Do you like jokes?", "That's a good joke.", "What's a joke?",
    "Tell me something funny about cats.", "Tell me a joke " + "please " * 30, "Another one.",
    "Tell me a joke about food today.", "Please don't tell me jokes.", "My dad used to tell me jokes.",
    "I haven't got any jokes.", "Has anyone got any jokes?", "Good joke!", "Oh, funny joke.",
])  # fmt: skip
def test_other_messages_draw_no_joke(request_: str) -> None:
    assert joke_to_tell(request_, ["The capital of France is Paris."], random.Random(0)) is None


def test_a_joke_on_a_subject_all_of_whose_jokes_were_told_is_the_models_to_make() -> None:
    cat = next(joke for joke in JOKES if "cat" in joke.about)
    assert joke_to_tell("Tell me another joke about cats.", [f"Here's one: {cat.says}"], random.Random(0)) is None


@pytest.mark.parametrize("another", ["Haha, another one!", "That's funny! Another one.", "That's great, one more please."])
def test_another_one_after_a_joke_or_what_it_played_on_draws_the_next(another: str) -> None:
    first, second = JOKES[0], JOKES[1]
    for last in (f"Here's one: {first.says}", first.plays_on):
        said = joke_to_tell(another, [f"Here's one: {second.says}", last], random.Random(0))
        assert said not in (None, first.says, second.says)


@pytest.mark.parametrize("follow", [
    "I don't get it.", "Huh? I don't get it.", "What do you mean?", "Why is that funny?", "Explain the joke.",
    "I don't understand.", "Can you explain that joke?", "What's so funny about that?", "I don't understand the joke.",
    "Why's that funny?", "Could you explain it?",
])  # fmt: skip
def test_not_getting_the_joke_just_told_gets_what_it_plays_on(follow: str) -> None:
    joke = JOKES[3]
    conversation = talk("Tell me a joke.", f"Here's one: {joke.says}", follow)
    assert joke_explained(follow, [f"Here's one: {joke.says}"]) == joke.plays_on
    note = joke_note(conversation)
    assert note is not None and joke.plays_on in note.says and said_notes(conversation)[0] == note
    noted = note.add(conversation)[-1]["content"]
    assert user_words(noted) == follow and has_note(noted)


def test_not_getting_a_reply_that_told_no_joke_written_down_gets_no_explanation() -> None:
    conversation = talk("Tell me a joke about taxes.", "Why did the tax man blush? It saw the bill.", "I don't get it.")
    assert joke_note(conversation) is None and "did not understand" in said_notes(conversation)[0].says


def test_the_joke_drawn_is_told_as_the_models_own_and_comes_off_the_users_words() -> None:
    conversation = talk("Tell me a joke.")
    note = joke_note(conversation, random.Random(0))
    assert note is not None and note.says.startswith('Begin with "Here\'s one:" and tell this joke: "')
    noted = note.add(conversation)[-1]["content"]
    assert user_words(noted) == "Tell me a joke." and has_note(noted)


@pytest.mark.parametrize("request_", ["Tell me a good joke.", "Can you tell me a good joke?", "Give me a good riddle."])
def test_a_good_joke_or_riddle_asked_for_is_drawn_not_suggested(request_: str) -> None:
    messages = SUGGEST_NOTE.add([{"role": "user", "content": request_}])
    assert messages[-1]["content"] == request_ and said_notes(messages)[0].says.startswith('Begin with "Here\'s one:"')
