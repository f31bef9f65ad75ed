"""Incremental detokenisation, stop strings and prompt truncation with the real tokenizer."""

from __future__ import annotations

import pytest
from transformers import AutoTokenizer

from app.engine.detokenizer import IncrementalDetokenizer
from app.engine.prompt import PromptTooLongError, build_prompt, render


@pytest.fixture(scope="module")
def tokenizer(prepared):
    return AutoTokenizer.from_pretrained(str(prepared.llm_dir))


def stream(tokenizer, text: str, stop: tuple[str, ...] = ()) -> tuple[list[str], bool, IncrementalDetokenizer]:
    detok = IncrementalDetokenizer(tokenizer, tokenizer.encode("Hello"), stop)
    pieces = []
    for token in tokenizer.encode(text):
        step = detok.push(token)
        pieces.append(step.text)
        if step.stopped:
            return pieces, True, detok
    pieces.append(detok.flush())
    return pieces, False, detok


def test_multibyte_characters_are_never_emitted_broken(tokenizer):
    text = " Café ☕ costs 3 €, 日本語 is fun 😀👍🏽!"
    ids = tokenizer.encode(text)
    assert len(ids) > len(text.split())  # some characters span several byte-level tokens
    pieces, stopped, _ = stream(tokenizer, text)
    assert not stopped
    assert all("\ufffd" not in p for p in pieces)
    assert "".join(pieces) == tokenizer.decode(ids)


def test_stop_string_ends_the_text_and_is_never_shown(tokenizer):
    pieces, stopped, _ = stream(tokenizer, " The answer is Paris. User: next question", stop=("User:",))
    assert stopped
    assert "".join(pieces) == " The answer is Paris. "
    assert not any("User" in p for p in pieces)


def test_text_that_might_start_a_stop_string_is_held_back_until_decided(tokenizer):
    detok = IncrementalDetokenizer(tokenizer, [], ("\nUser",))
    shown = ""
    for token in tokenizer.encode("Yes.\nUsually"):
        shown += detok.push(token).text
        if shown.endswith("\n"):
            pytest.fail("a possible stop-string start was emitted early")
    assert shown + detok.flush() == "Yes.\nUsually"


def conversation(turns: int) -> list[dict]:
    msgs = [{"role": "system", "content": "Be brief."}]
    for i in range(turns):
        msgs += [{"role": "user", "content": f"Question {i} about something long enough."},
                 {"role": "assistant", "content": f"Answer {i} with a few words in it."}]
    return msgs + [{"role": "user", "content": "Last question?"}]


def test_truncation_drops_the_oldest_turns_and_keeps_the_system_prompt(tokenizer):
    msgs = conversation(6)
    full = render(tokenizer, msgs)
    keep_two = render(tokenizer, msgs[:1] + msgs[-5:])  # system + two newest turns + the question
    out = build_prompt(tokenizer, msgs, default_system=None, max_prompt_tokens=len(keep_two))
    assert len(full) > len(keep_two)
    assert out.token_ids == keep_two and out.dropped_turns == 4
    assert tokenizer.decode(out.token_ids).count("Be brief.") == 1


def test_a_missing_system_prompt_gets_the_default_and_an_impossible_prompt_is_refused(tokenizer):
    out = build_prompt(tokenizer, [{"role": "user", "content": "Hi"}], default_system="Be kind.", max_prompt_tokens=500)
    assert "Be kind." in tokenizer.decode(out.token_ids) and out.dropped_turns == 0
    with pytest.raises(PromptTooLongError):
        build_prompt(tokenizer, conversation(2), default_system=None, max_prompt_tokens=10)
