"""A new word drawn from words written down with what they mean (app.answers.new_words)."""

from __future__ import annotations

import random
import re

import pytest

from app.answers.new_words import WORDS, word_to_teach
from app.answers.notes import SUGGEST_NOTE, has_note, said_notes, user_words
from test_notes import talk


def test_every_word_is_one_word_with_a_meaning_and_no_double_quote() -> None:
    assert len({word for word, _ in WORDS}) == len(WORDS) >= 20
    for word, meaning in WORDS:
        assert word.isalpha() and word == word.lower() and meaning and '"' not in meaning and not meaning.endswith(".")


@pytest.mark.parametrize("request_", [
    "Teach me a new word.", "Teach me a word.", "Tell me a big word.", "Give me a word of the day.", "Word of the day.",
    "What's the word of the day?", "Can you teach me a new word?", "Teach me some new words.", "Help me learn new words.",
    "Tell me a word I don't know.", "Give me a fancy word.", "Tell me a new word, please.", "Teach me a new English word.",
    "Tell me a fun word.", "Give me a great word.", "Give me some fun words.",
])  # fmt: skip
def test_a_new_word_asked_for_is_drawn_and_taught_first(request_: str) -> None:
    assert word_to_teach(request_, [], random.Random(0)) in WORDS
    note = said_notes(SUGGEST_NOTE.add(talk(request_)))[0]  # (the suggestion's note, first on the server: not for these)
    assert re.match(r'Begin with "Here\'s one:" and teach the user this word: "[A-Z][a-z]+\. It means ', note.says)


@pytest.mark.parametrize("request_", [
    "Give me a word.", "What's the word?", "Give me a word that starts with Q.", "What does this word mean?",
    "What's another word for happy?", "Another one.", "Give me a hard word.",
])  # fmt: skip
def test_other_messages_draw_no_word(request_: str) -> None:
    assert word_to_teach(request_, [], random.Random(0)) is None


def test_words_are_not_taught_twice_in_a_conversation_and_another_one_draws_the_next() -> None:
    draws, replies = random.Random(2), []
    for _ in WORDS:
        word, meaning = word_to_teach("Teach me a new word.", replies, draws)
        replies.append(f"Here's one: {word}. It means {meaning}.")
    assert len(set(replies)) == len(WORDS)
    first = next(pair for pair in WORDS if pair[0] in replies[0])
    assert word_to_teach("Another one.", replies[:1], draws) not in (None, first)
    assert word_to_teach("Another one.", ["Here's one: Eleven benevolent elephants."], draws) is None  # a twister


def test_with_every_word_taught_another_one_is_any_but_the_last() -> None:
    replies = [f"Here's one: {word.capitalize()}. It means {meaning}." for word, meaning in WORDS]
    assert {word_to_teach("Another one.", replies, random.Random(seed)) for seed in range(300)} == set(WORDS[:-1])


def test_the_word_drawn_comes_off_the_users_words() -> None:
    conversation = talk("Teach me a new word.")
    noted = said_notes(conversation)[0].add(conversation)[-1]["content"]
    assert user_words(noted) == "Teach me a new word." and has_note(noted)


def test_how_do_you_spell_that_after_a_word_taught_gets_its_letters() -> None:
    from app.answers.spelling import letters, with_spelling_hint

    taught = "Here's one: Onomatopoeia. It means a word that sounds like what it names, such as buzz, sizzle or splash."
    hinted = with_spelling_hint(talk("Teach me a new word.", taught, "How do you spell that?"))[-1]["content"]
    assert letters("onomatopoeia") in hinted
