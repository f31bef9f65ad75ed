"""Spelling questions: which ones get the word's letters, and the served 1.5B spelling a word out through the real
server (it repeats the word, or misspells it, without them)."""

from __future__ import annotations

import pytest

from app.bench.quality import spelled_words
from app.engine.spelling import asked_word, letters, with_spelling_hint


@pytest.mark.parametrize(
    ("question", "word"),
    [
        ("How do you spell 'necessary'?", "necessary"),
        ("how do you spell necessary", "necessary"),  # as a transcript comes: no quotes, no capital
        ("Can you spell the word receive for me?", "receive"),
        ("How is “rhythm” spelled?", "rhythm"),
        ("Spell Mississippi.", "Mississippi"),
        ("What's the spelling of Wednesday?", "Wednesday"),
        ("How do you spell Los Angeles?", "Los Angeles"),
        ('He said "hi". I never know how to spell accommodate, can you help?', "accommodate"),
        ("Please spell out mother-in-law.", "mother-in-law"),
        ("how do you spell cat backwards", "cat"),
        ("How do you spell receive in English?", "receive"),
        ("Have you spell necessary?", "necessary"),  # a transcript's mishearing of "how do you spell"
        ("I can't spell well. How do you spell necessary?", "necessary"),
    ],
)
def test_a_question_asking_for_a_spelling_names_its_word(question: str, word: str) -> None:
    assert asked_word(question) == word


@pytest.mark.parametrize(
    "question",
    [
        "Is 'recieve' spelled right?",  # the letters would tell the model it is
        "How do you spell hola in Spanish?",  # another language's spelling
        "How do you spell your name?",
        "How do you spell it?",
        "How do you spell this word: it is the one after Tuesday in the week, with an odd d?",
        "I spell words badly.",
        "The witch cast a spell on him.",
        "We had a spell of rain.",
        "Spell checkers help.",
        "What does 'spell' mean?",
        "Any tips for a spelling bee?",
        "What is the capital of France?",
        "how to spell",
        "How do you spell " + "ab-" * 30 + "ab?",  # past MAX_CHARS: not a word
    ],
)
def test_other_questions_get_no_letters(question: str) -> None:
    assert asked_word(question) is None


def test_letters_are_spelled_out_with_hyphens_and_names_apart() -> None:
    assert letters("necessary") == "N-E-C-E-S-S-A-R-Y"
    assert letters("Los Angeles") == "L-O-S A-N-G-E-L-E-S"
    assert letters("mother-in-law") == "M-O-T-H-E-R hyphen I-N hyphen L-A-W"
    assert letters("o'clock") == "O apostrophe C-L-O-C-K"


def test_only_the_newest_user_message_gets_them() -> None:
    asked = {"role": "user", "content": "How do you spell 'receive'?"}
    hinted = with_spelling_hint([{"role": "system", "content": "Be brief."}, asked])
    assert hinted[-1]["content"] == ("How do you spell 'receive'?\n\n"
                                     '(The word "receive" is spelled R-E-C-E-I-V-E. Answer by saying these letters.)')
    assert asked["content"] == "How do you spell 'receive'?"  # the conversation's own message is left as it was
    answered = [asked, {"role": "assistant", "content": "R-E-C-E-I-V-E."}]
    assert with_spelling_hint(answered) == answered
    assert with_spelling_hint([{"role": "user", "content": "Hello!"}]) == [{"role": "user", "content": "Hello!"}]


async def test_the_served_model_spells_the_word_out(tools_server_url: str) -> None:
    from openai import AsyncOpenAI

    client = AsyncOpenAI(api_key="not-needed", base_url=tools_server_url + "/v1",
                         websocket_base_url=tools_server_url.replace("http://", "ws://") + "/v1")
    async with client.realtime.connect(model="qwen2.5-1.5b") as connection:
        await connection.session.update(session={"type": "realtime", "output_modalities": ["text"]})
        for word in ("necessary", "rhythm"):
            question = f"How do you spell {word}?"
            await connection.conversation.item.create(
                item={"type": "message", "role": "user", "content": [{"type": "input_text", "text": question}]}
            )
            await connection.response.create()
            text, stored = "", None
            async for event in connection:
                assert event.type != "error", event
                if event.type == "conversation.item.added" and event.item.role == "user":
                    stored = event.item.content[0].text
                if event.type == "response.output_text.delta":
                    text += event.delta
                if event.type == "response.done":
                    break
            assert stored == question  # the conversation holds the user's words, not the letters
            assert spelled_words(text) == [word], text
