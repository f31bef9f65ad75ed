"""ClauseChunker: where a streamed reply is cut into chunks for synthesis."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.tts import ClauseChunker
from app.tts.chunker import sentences


def chunk_stream(deltas: list[str], **options: int) -> list[str]:
    chunker = ClauseChunker(**options)
    chunks = [chunk for delta in deltas for chunk in chunker.push(delta)]
    return chunks + chunker.flush()


def word_deltas(text: str) -> list[str]:
    """Roughly how an LLM streams: a word with its leading space per delta."""
    return re.findall(r"\s*\S+", text)


def chunk_all_ways(text: str) -> list[str]:
    """Chunks of ``text`` streamed word by word; streamed character by character they must be the same."""
    by_word = chunk_stream(word_deltas(text))
    assert chunk_stream(list(text)) == by_word
    return by_word


def test_first_sentence_is_cut_as_soon_as_it_ends() -> None:
    chunker = ClauseChunker()
    assert chunker.push("Sure!") == []  # "!" could still be followed by more punctuation
    assert chunker.push(" The") == ["Sure!"]


def test_first_chunk_ends_at_first_clause_later_ones_at_long_enough_clauses() -> None:
    text = "Well, the capital of France is Paris, a city of art. It is lovely in spring, and in summer too."
    assert chunk_all_ways(text) == [
        "Well,",
        "the capital of France is Paris,",
        "a city of art.",
        "It is lovely in spring, and in summer too.",  # "It is lovely in spring," is too short a clause
    ]


def test_first_chunk_after_a_few_words_without_punctuation_avoids_hanging_words() -> None:
    chunks = chunk_all_ways("We could go to the park after lunch and walk along the river for an hour or two")
    assert chunks[0] == "We could go"  # not "We could go to the": five words, less the hanging "to the"
    assert " ".join(chunks) == "We could go to the park after lunch and walk along the river for an hour or two"


def test_first_chunk_is_cut_as_soon_as_a_phrase_can_end_after_three_words() -> None:
    chunker = ClauseChunker()
    pushed = [chunker.push(delta) for delta in ["The", " tallest", " mountain", " in"]]
    assert pushed == [[], [], [], ["The tallest mountain"]]  # not waiting for "the world" to cut at the same place
    assert chunk_all_ways("Spiders have eight legs and six eyes.")[0] == "Spiders have eight legs"  # a number hangs
    assert chunk_all_ways("The capital of France is Paris.")[0] == "The capital of France"


def test_the_first_chunk_never_ends_inside_a_name() -> None:
    """Each chunk is voiced on its own: "the United | States" is heard "the United. Tates"."""
    assert chunk_all_ways("The capital of the United States is Washington.")[0] == "The capital"
    assert chunk_all_ways("I love New York City in the spring.")[0] == "I love New York City"
    assert chunk_all_ways("The United States of America declared independence in 1776.")[0] == "The United States"
    chunker = ClauseChunker()
    pushed = [chunker.push(delta) for delta in ["The", " capital", " of", " France", " is"]]
    assert pushed == [[], [], [], [], ["The capital of France"]]  # one word later: "France" could have begun a name
    long_later = "Hi. " + "alpha " * 39 + "Paris is lovely in spring."  # a later chunk's forced cut waits for it too
    assert chunk_stream([long_later]) == chunk_stream(list(long_later))


def test_long_later_sentences_are_cut_at_clauses() -> None:
    text = ("Yes. The museum opens early on weekdays, but on Sundays it stays closed until noon, "
            "so plan your visit for Saturday.")
    assert chunk_all_ways(text) == [
        "Yes.",
        "The museum opens early on weekdays,",
        "but on Sundays it stays closed until noon,",
        "so plan your visit for Saturday.",
    ]


def test_numbers_are_never_split() -> None:
    text = "It costs 3.5 dollars. That is 1,000 times more than 0.5 cents at 3:30 pm. Version 2.0.1 is out."
    chunks = chunk_all_ways(text)
    assert chunks == [
        "It costs 3.5 dollars.",
        "That is 1,000 times more than 0.5 cents at 3:30 pm.",
        "Version 2.0.1 is out.",
    ]


def test_a_comma_between_numbers_is_no_clause_end() -> None:
    text = "Mount Everest is the highest mountain in the world, at 8,848 meters (29, 791 feet), or 2, 4, 7 more."
    assert chunk_all_ways(text) == ["Mount Everest is the highest", "mountain in the world, at 8,848 meters (29, 791 feet),",
                                    "or 2, 4, 7 more."]
    chunker = ClauseChunker()
    assert chunker.push("Wow. It is about the height of 29,") == ["Wow."]  # the next character decides
    assert chunker.push(" 791 feet, I think.") == ["It is about the height of 29, 791 feet,"]


def test_a_period_at_the_end_of_the_stream_waits_for_the_next_character() -> None:
    chunker = ClauseChunker()
    assert chunker.push("Sure. It costs 3.") == ["Sure."]
    assert chunker.push("5 dollars. ") == ["It costs 3.5 dollars."]


def test_abbreviations_are_not_sentence_ends() -> None:
    text = ("Sure. Dr. Smith and Mr. Jones met Mrs. Brown in the U.S. last year, e.g. in May. "
            "Prof. Lee, i.e. the chair, agreed vs. the others. See No. 5 today.")
    assert chunk_all_ways(text) == [
        "Sure.",
        "Dr. Smith and Mr. Jones met Mrs. Brown in the U.S. last year,",
        "e.g. in May.",
        "Prof. Lee, i.e. the chair, agreed vs. the others.",
        "See No. 5 today.",
    ]


def test_soft_abbreviations_end_a_sentence_only_before_a_capital() -> None:
    assert chunk_all_ways("Okay. We meet at 5 p.m. tomorrow. Bring apples, pears etc. Then we eat.") == [
        "Okay.",
        "We meet at 5 p.m. tomorrow.",
        "Bring apples, pears etc.",
        "Then we eat.",
    ]


def test_urls_emails_and_initials_stay_whole() -> None:
    text = ("Okay. Visit https://example.com/docs/v1.2/index.html?q=a.b for details. "
            "Or mail j.doe@mail.example.org now. J. R. R. Tolkien wrote it.")
    assert chunk_all_ways(text) == [
        "Okay.",
        "Visit https://example.com/docs/v1.2/index.html?q=a.b for details.",
        "Or mail j.doe@mail.example.org now.",
        "J. R. R. Tolkien wrote it.",
    ]


def test_ellipses_are_cut_after_the_last_dot_only() -> None:
    assert chunk_all_ways("Well... I guess so. Hmm… maybe not, who knows?!") == [
        "Well...",
        "I guess so.",
        "Hmm… maybe not, who knows?!",
    ]


def test_closing_quotes_and_brackets_stay_with_their_sentence() -> None:
    assert chunk_all_ways('He said "hello." Then (after a pause.) he left.') == [
        'He said "hello."',
        "Then (after a pause.)",
        "he left.",
    ]


def test_list_items_and_lines_are_chunks_and_list_numbers_are_not_sentence_ends() -> None:
    assert chunk_all_ways("Here is a list:\n1. Apples\n2. Pears\n\nDone.") == [
        "Here is a list:",
        "1. Apples",
        "2. Pears",
        "Done.",
    ]


def test_code_blocks_are_never_cut_inside() -> None:
    text = "Run this:\n```python\nx = 1. y = 2\nprint(x, y)\n```\nThen check `a. b` output. Done."
    assert chunk_all_ways(text) == [
        "Run this:",
        "```python\nx = 1. y = 2\nprint(x, y)\n```",
        "Then check `a. b` output.",
        "Done.",
    ]


def test_flush_returns_the_rest_once_and_empty_text_gives_nothing() -> None:
    chunker = ClauseChunker()
    assert chunker.push("Hello there") == []
    assert chunker.flush() == ["Hello there"]
    assert chunker.flush() == []
    assert chunk_stream(["   ", "\n"]) == []


@settings(max_examples=150, deadline=None)
@given(
    words=st.lists(
        st.sampled_from(["Hi", "3.5", "1,000", "Dr.", "e.g.", "U.S.", "ok,", "yes.", "so...", "a", "the", "why?",
                         "x@y.com", "https://a.io/b.c", "well;", "No.", "5", "p.m.", "Then", "\n", "-", "New", "York",
                         "“quote.”"]),
        min_size=1, max_size=40,
    ),
    cuts=st.lists(st.integers(min_value=1, max_value=6), min_size=1, max_size=20),
)
def test_chunks_keep_every_word_and_do_not_depend_on_how_the_stream_is_split(
    words: list[str], cuts: list[int]
) -> None:
    text = " ".join(words)
    deltas, start, i = [], 0, 0
    while start < len(text):
        deltas.append(text[start:start + cuts[i % len(cuts)]])
        start += cuts[i % len(cuts)]
        i += 1
    chunks = chunk_stream(deltas)
    assert chunks == chunk_stream([text])
    assert " ".join(chunks).split() == text.split()
    assert all(chunk == chunk.strip() and chunk for chunk in chunks)


def test_a_reply_pushed_whole_is_cut_where_a_streamed_one_is() -> None:
    text = "hi " * 8 + "\n"  # the first clause ends only after the first chunk's cut
    assert chunk_stream([text]) == chunk_stream(list(text)) == ["hi hi hi", "hi hi hi hi hi"]


@pytest.mark.parametrize(("text", "expected"), [
    ("Oh, thanks! How many legs does a spider have?", ["Oh, thanks!", "How many legs does a spider have?"]),
    ("How far is St. Louis from Chicago?", ["How far is St. Louis from Chicago?"]),
    ("It is 3.5 km. Why?", ["It is 3.5 km.", "Why?"]),
    ("Wait... what? Yes.", ["Wait... what?", "Yes."]),
    ("no mark at all", ["no mark at all"]),
    ("", []),
])  # fmt: skip
def test_sentences_are_cut_where_chunks_end_a_sentence(text: str, expected: list[str]) -> None:
    assert sentences(text) == expected
