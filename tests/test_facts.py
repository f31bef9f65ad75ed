"""A fun fact asked for on no subject: drawn from the checked facts, none said twice in a conversation."""

from __future__ import annotations

import random

import pytest

from app.answers.facts import FACT_REQUEST, FACTS, fact_to_say
from app.answers.notes import chance_note, has_note, user_words

ASKED = [
    "Tell me a fun fact.", "Tell me something interesting.", "Surprise me.", "Tell me something I don't know.",
    "Give me a random fact, please.", "Fun fact?", "Can you tell me something cool?", "Tell us something weird.",
    "Surprise me, please!", "Tell me an interesting fact.", "Another fact.", "Okay, tell me something new.",
    "Tell me a fact.", "Tell me some fun facts.", "Do you know any fun facts?", "Say something interesting.",
    "Teach me something new.", "Tell me something I didn't know.",
]  # fmt: skip


@pytest.mark.parametrize("message", ASKED)
def test_a_fact_asked_for_on_no_subject_is_drawn_from_the_facts(message: str) -> None:
    fact = fact_to_say(message, [], random.Random(3))
    assert fact in FACTS and FACT_REQUEST.search(message)


@pytest.mark.parametrize("message", [
    "Tell me a fun fact about Paris.", "What's a fact?", "Tell me something about Paris.", "Is that a fact?",
    "Tell me something funny.", "Surprise party ideas?", "Another one.", "Tell me another one.", "I know a fun fact.",
    "Fact.",
])  # fmt: skip
def test_a_subject_named_or_another_of_no_fact_draws_none(message: str) -> None:
    assert fact_to_say(message, ["Why did the chicken cross the road? To get to the other side."], random.Random(3)) is None


def test_surprise_me_as_the_answer_to_a_question_draws_none() -> None:
    assert fact_to_say("Surprise me.", ["Shall I tell a story about dragons or pirates?"], random.Random(3)) is None
    assert fact_to_say("Tell me a fun fact.", ["Anything else?"], random.Random(3)) in FACTS


def test_no_fact_is_said_twice_until_all_are_and_another_one_draws_the_next() -> None:
    draws, replies = random.Random(5), []
    for asked in ["Tell me a fun fact.", *["Another one."] * (len(FACTS) - 1)]:
        fact = fact_to_say(asked, replies, draws)
        replies.append(f"Here's a fun fact: {fact} Isn't that amazing?")
    assert {reply.split(": ", 1)[1].removesuffix(" Isn't that amazing?") for reply in replies} == set(FACTS)
    assert fact_to_say("Another one.", replies, draws) in FACTS  # all said: any again


def test_the_fact_is_the_answer_beside_the_question() -> None:
    note = chance_note([{"role": "user", "content": "Surprise me."}], random.Random(1))
    noted = note.add([{"role": "user", "content": "Surprise me."}])[-1]["content"]
    assert note.says.removeprefix('Answer: "').removesuffix('"') in FACTS  # the fact alone: the model says it
    assert user_words(noted) == "Surprise me." and has_note(noted)


def test_each_fact_is_one_short_spoken_sentence_or_two() -> None:
    assert len(set(FACTS)) == len(FACTS) >= 40
    for fact in FACTS:  # a colon would read as the answer's own ("Here's one: ..."), a long one is no voice reply
        assert fact[0].isupper() and fact.endswith(".") and ":" not in fact and len(fact) <= 120


@pytest.mark.parametrize(("message", "words"), [
    ("Tell me a fun fact about space.", ("Moon", "Sun", "planet", "Venus", "Jupiter", "Saturn", "galaxy")),
    ("Give me an interesting fact about the ocean, please.", ("Pacific", "Octopuses", "Sharks", "Dolphins", "Starfish",
                                                              "turtles")),
    ("Tell me some fun facts about history.", ("war", "Oxford", "Cleopatra", "Pyramid")),
    ("Tell me a fact about animals.", ("Octopuses", "Wombats", "flamingos", "Butterflies", "Polar", "ostrich", "Hummingbirds",
                                       "Crocodiles", "turtles", "Cats", "Honeybees", "Dolphins", "snail", "kangaroo",
                                       "Starfish", "frogs", "Sharks")),
])  # fmt: skip
def test_a_fact_on_a_subject_some_are_about_is_drawn_from_those(message: str, words: tuple[str, ...]) -> None:
    """Not "The most famous planet in our solar system is Earth." for space; none said twice, and once all are, the
    model's to tell."""
    draws, replies = random.Random(2), []
    while (fact := fact_to_say(message, replies, draws)) is not None:
        assert fact in FACTS and any(word in fact for word in words) and fact not in replies, fact
        replies.append(fact)
    assert len(replies) >= 3
    assert "space" not in message or not any(fact.startswith("Cleopatra") for fact in replies)  # the Moon landing's is history's
