"""Words that rhyme and a word's syllables, looked up by their sounds (app.answers.rhymes), and their place beside the
question."""

from __future__ import annotations

import time

import pytest

from app.answers.conversions import with_conversion_hint, without_conversion_hint
from app.answers.rhymes import WORDS_PATH, rhymes_asked, syllables_asked


@pytest.mark.parametrize(("question", "rhymes"), [
    ("What rhymes with cat?", "that, at, pat, mat, sat"),
    ("What's a word that rhymes with dog?", "log, blog"),
    ("Tell me some words that rhyme with moon.", "soon, afternoon, immune, tune, cartoon"),
    ("Can you give me a rhyme for blue?", "to, you, do, who, new"),
    ("Give me three words that rhyme with night.", "right, might, light"),
    ("I need a word that rhymes with day for my poem.", "they, play, may, way, say"),
    ("Do you know any rhymes for king?", "thing, sing, bring, string, ring"),
    ('What rhymes with "cake"?', "make, take, break, mistake, wake"),
    ("Give me 8 words that rhyme with bell", "well, tell, cell, fell, sell, spell, hotel, shell"),
    ("What are some words that rhyme with mother?", "other, another, brother"),
    ("What rhymes with all?", "call, small, fall, ball, wall"),  # "ball" ends with "all" and rhymes with it
    ("What rhymes with here?", "year, ear, near, clear, appear"),  # the dictionary's "here" HH IY1 R, "near" N IH1 R
    ("What rhymes with read?", "said, lead, head, instead, dead"),  # both ways of saying it, and then "need"
    ("What rhymes with fit?", "it, bit, sit, hit, commit"),  # not "get", said as "git" in the dictionary too
    ("What rhymes with go?", "pro, so, no, know, show"), ("Words rhyming with light.", "right, might, night, fight, white"),
])  # fmt: skip
def test_rhymes_are_looked_up(question: str, rhymes: str) -> None:
    word = question.split()[-1].strip("?.\"'") if "for my poem" not in question else "day"
    assert rhymes_asked(question) == f'Worked out: words that rhyme with "{word}": {rhymes}.'


@pytest.mark.parametrize(("question", "answer"), [
    ("Does cat rhyme with hat?", 'yes, "cat" rhymes with "hat"'),
    ("Do dog and cat rhyme?", 'no, "dog" and "cat" do not rhyme'),
    ("Does moon rhyme with tune?", 'yes, "moon" rhymes with "tune"'),
    ("Does here rhyme with near?", 'yes, "here" rhymes with "near"'),
    ("Does live rhyme with give?", 'yes, "live" rhymes with "give"'),  # one of its two ways
    ("Does the word lock rhyme with clock?", 'yes, "lock" rhymes with "clock"'),
    ("Is cat a rhyme for hat?", 'yes, "cat" rhymes with "hat"'),
    ("Do the words cat and hat rhyme?", 'yes, "cat" rhymes with "hat"'),
    ("Which rhymes with cat: hat or dog?", '"hat" rhymes with "cat", and "dog" does not'),
    ("Does anything rhyme with cat?", 'words that rhyme with "cat": that, at, pat, mat, sat'),
    ("Can you rhyme with moon?", 'words that rhyme with "moon": soon, afternoon, immune, tune, cartoon'),
])  # fmt: skip
def test_whether_two_words_rhyme_is_said(question: str, answer: str) -> None:
    assert rhymes_asked(question) == f"Worked out: {answer}."


@pytest.mark.parametrize(("question", "word"), [
    ("What rhymes with orange?", "orange"), ("Does anything rhyme with silver?", "silver"),
    ("Give me three words that rhyme with month.", "month"), ("Rhymes for purple?", "purple"),
])  # fmt: skip
def test_a_word_known_to_have_no_rhyme_is_said_to_have_none(question: str, word: str) -> None:
    said = f'Worked out: no English word rhymes exactly with "{word}". Say the answer in one short sentence.'
    assert rhymes_asked(question) == said


@pytest.mark.parametrize("question", [
    "What rhymes with happy?",  # none among the common words, which is not none at all ("snappy")
    "What rhymes with zxq?", "Can you rhyme?", "Write a poem that rhymes with the sea.",
    "Does day rhyme with day?", "Tell me a rhyme.", "How do you spell rhyme?",
    "Does day rhyme with today?", "Does happy rhyme with unhappy?",  # one syllable twice: a rhyme to some, not to others
    "Tell me a rhyme for kids.", "Do you know any rhymes for kids?", "I made up a rhyme for you.",  # a verse for them
    "What rhymes with cat in Spanish?", "Does orange rhyme with door hinge?",
])  # fmt: skip
def test_other_questions_get_nothing(question: str) -> None:
    assert rhymes_asked(question) is None


def test_no_rhyme_offered_is_swearing_or_a_word_piece() -> None:
    words = {line.split("\t")[0] for line in WORDS_PATH.read_text(encoding="utf-8").splitlines()}
    assert len(words) > 10000 and not words & {"fuck", "shit", "hell", "tit", "pre", "com", "del", "tri", "http", "re", "ve"}
    said = rhymes_asked("Give me ten words that rhyme with bell")
    assert said is not None and "hell" not in said.removesuffix(".").partition(": ")[2].split(", ")


def test_the_rhymes_go_beside_the_question_and_come_off() -> None:
    question = "What rhymes with cat?"
    hinted = with_conversion_hint([{"role": "user", "content": question}])[-1]["content"]
    assert hinted == f'{question}\n\n(Worked out: words that rhyme with "cat": that, at, pat, mat, sat.)'
    assert without_conversion_hint(hinted) == question


def test_long_text_costs_next_to_nothing() -> None:
    started = time.perf_counter()
    for text in ["What rhymes with " + "cat " * 40 + "?", "rhyme " * 2000]:
        rhymes_asked(text)
    assert time.perf_counter() - started < 1.0


@pytest.mark.parametrize(("question", "counted"), [
    ("How many syllables are in banana?", '"banana" has three syllables'),
    ("How many syllables does the word elephant have?", '"elephant" has three syllables'),
    ("How many syllables in computer?", '"computer" has three syllables'),
    ("How many syllables are in the word cat?", '"cat" has one syllable'),
    ("how many syllables are there in water", '"water" has two syllables'),
    ('Count the syllables in "hello".', '"hello" has two syllables'),
    ("How many syllables does fire have?", '"fire" has one or two syllables, as it is said both ways'),
])  # fmt: skip
def test_a_words_syllables_are_counted_from_its_sounds(question: str, counted: str) -> None:
    assert syllables_asked(question) == f"Worked out: {counted}. Say the answer in one short sentence."
    hinted = with_conversion_hint([{"role": "user", "content": question}])[-1]["content"]
    assert hinted.endswith(f"(Worked out: {counted}. Say the answer in one short sentence.)")
    assert without_conversion_hint(hinted) == question


@pytest.mark.parametrize("question", [
    "How many syllables in a haiku?", "How many syllables does my name have?", "What is a syllable?",
    "How many syllables does it have?", "How many syllables in that?",
    "How many syllables are in supercalifragilistic?", "How many syllables does " + "cat " * 60 + "have?",
])  # fmt: skip
def test_other_questions_about_syllables_get_nothing(question: str) -> None:
    assert syllables_asked(question) is None
