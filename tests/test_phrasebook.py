"""Everyday phrases in other languages from the phrasebook (app.answers.phrasebook), beside the question that asks."""

from __future__ import annotations

import pytest

from app.answers.conversions import with_conversion_hint, without_conversion_hint
from app.answers.notes import follow_up_note
from app.answers.phrasebook import LANGUAGES, PHRASES, phrase_in


@pytest.mark.parametrize(("question", "phrase", "language", "said"), [
    ("How do you say thank you in Italian?", "thank you", "Italian", "grazie"),
    ("Translate 'see you later' into Spanish.", "see you later", "Spanish", "hasta luego"),
    ("How do you say I love you in Italian?", "I love you", "Italian", "ti amo"),
    ("Translate cheers into German.", "cheers", "German", "prost"),
    ("How do I say thank you very much in Spanish?", "thank you very much", "Spanish", "muchas gracias"),
    ("Translate please into French.", "please", "French", "s'il vous plaît"),  # not a request to translate something
    ("What is the French word for please?", "please", "French", "s'il vous plaît"),
    ("What's hello in Japanese?", "hello", "Japanese", "konnichiwa"),  # in Latin letters, as the voice can say it
    ('How do you say "Where is the bathroom?" in Portuguese?', "Where is the bathroom", "Portuguese", "onde fica o banheiro?"),
    ("Can you say good night in Mandarin?", "good night", "Chinese", "wan an"),
    ("How do you say the word yes in Russian?", "yes", "Russian", "da"),
    ("tell me happy birthday in dutch", "happy birthday", "Dutch", "gefeliciteerd met je verjaardag"),
    ("How do you say ‘thanks’ in Brazilian Portuguese?", "thanks", "Portuguese", "obrigado (obrigada, said by a woman)"),
])  # fmt: skip
def test_an_everyday_phrase_asked_in_another_language_gets_the_phrasebooks_line(question: str, phrase: str, language: str,
                                                                                said: str) -> None:  # fmt: skip
    assert phrase_in(question) == f'The user asks how to say "{phrase}" in {language}. Phrasebook: "{said}".'


@pytest.mark.parametrize("question", [
    "How do you say dog in Spanish?",  # a word the model knows, not a phrase
    "How do you say no to my boss in French?", "What does grazie mean in English?", "Translate thank you to Klingon.",
    "Thank you!", "How do you say thank you to a teacher?", "What is the capital of Italy?",
    "How do you say " + "thank you " * 500 + "in Italian?",
])  # fmt: skip
def test_other_questions_get_no_phrase(question: str) -> None:
    assert phrase_in(question) is None


def test_every_phrase_is_in_every_language_and_readable_by_the_voice() -> None:
    for phrase, by_language in PHRASES.items():
        assert tuple(by_language) == LANGUAGES, phrase
        for said in by_language.values():
            assert said and all(c.isascii() or c.isalpha() and ord(c) < 0x250 or c in "¿¡" for c in said), said


def test_the_line_goes_beside_the_question_and_a_follow_up_in_another_language_gets_it_too() -> None:
    question = "How do you say thank you in Italian?"
    hinted = with_conversion_hint([{"role": "user", "content": question}])[-1]["content"]
    assert hinted == f'{question}\n\n(The user asks how to say "thank you" in Italian. Phrasebook: "grazie".)'
    assert without_conversion_hint(hinted) == question
    asked = [{"role": "user", "content": "How do you say thank you in Spanish?"}, {"role": "assistant", "content": "Gracias."},
             {"role": "user", "content": "What about in Italian?"}]  # fmt: skip
    note = follow_up_note(asked)
    assert note is not None and note.says.endswith('Phrasebook: "grazie".')  # it said "Ciao" without it
    assert 'Phrasebook' not in (follow_up_note(asked, figures=False) or note).says


def test_a_follow_up_in_another_language_after_a_request_to_translate_gets_it() -> None:
    asked = [{"role": "user", "content": "Translate 'good night' into German."}, {"role": "assistant", "content": "Gute Nacht."},
             {"role": "user", "content": "What about in Italian?"}]  # fmt: skip
    note = follow_up_note(asked)
    assert note is not None and note.says.endswith('Phrasebook: "buonanotte".')
