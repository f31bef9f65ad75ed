"""Incremental detokenisation, stop strings and prompt truncation with the real tokenizer."""

from __future__ import annotations

import functools

import pytest
from transformers import AutoTokenizer

from app.engine.detokenizer import IncrementalDetokenizer
from app.engine.prompt import PromptBuilder, PromptTooLongError, RenderedPrompt, build_prompt, render


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


def examples() -> list[tuple[list[dict], str | None, int]]:
    """(messages, default system prompt, token budget): conversations long and short, with and without their own
    system prompt, ending in a final message to continue (a user's words so far, a reply's start) or not, budgets
    that drop none, some or all of the older turns, and ones that fit nothing."""
    with_tool_turn = conversation(3)[:-1] + [
        {"role": "user", "content": "What time is it?"}, {"role": "assistant", "content": "Let me look."},
        {"role": "assistant", "content": "It is noon."}, {"role": "user", "content": "Thanks!"}]
    open_question = conversation(6)[:-1] + [{"role": "user", "content": "what is the capital of", "prefix": True}]
    open_reply = conversation(2) + [{"role": "assistant", "content": "It is", "prefix": True}]
    cases = []
    for messages in (conversation(0), conversation(2), conversation(6), conversation(6)[1:], with_tool_turn, open_question,
                     open_reply):
        for default in (None, "Be kind."):
            for budget in (10, 40, 60, 90, 120, 200, 10_000):
                cases.append((messages, default, budget))
    return cases


def outcome(build, messages, default, budget):
    try:
        return build(messages, default_system=default, max_prompt_tokens=budget)
    except PromptTooLongError as error:
        return str(error)


def test_the_builder_drops_the_same_turns_as_rendering_each_try(tokenizer):
    builder = PromptBuilder(tokenizer)
    assert builder.pieces_add_up  # ChatML: the fast path, not the fallback
    rendered_each_time = functools.partial(build_prompt, tokenizer)
    results = [(outcome(builder.build, *case), outcome(rendered_each_time, *case)) for case in examples()]
    assert all(new == old for new, old in results)
    assert {r.dropped_turns for r, _ in results if isinstance(r, RenderedPrompt)} >= {0, 1, 2, 5}
    assert any(isinstance(r, str) for r, _ in results)


def test_each_message_is_tokenised_once_and_the_cache_is_bounded(tokenizer, monkeypatch):
    builder = PromptBuilder(tokenizer, max_cached_tokens=400)
    encoded = []
    encode = tokenizer.encode
    monkeypatch.setattr(tokenizer, "encode", lambda text, **kw: encoded.append(text) or encode(text, **kw))
    monkeypatch.setattr(tokenizer, "apply_chat_template", counting(tokenizer.apply_chat_template, tokenized := []))
    messages = conversation(4)
    first = builder.build(messages, default_system=None, max_prompt_tokens=10_000)
    assert len(encoded) == len(messages) + 1  # each message, and the generation prompt
    grown = messages + [{"role": "assistant", "content": "Fine."}, {"role": "user", "content": "And now?"}]
    second = builder.build(grown, default_system=None, max_prompt_tokens=10_000)
    assert len(encoded) == len(messages) + 3  # only the two new messages
    assert second.token_ids[: len(first.token_ids) - 3] == first.token_ids[:-3]  # the same prefix, then the new turn
    assert not tokenized  # nothing rendered to tokens: the template only renders text
    huge = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "word " * 2000}]
    builder.build(huge, default_system=None, max_prompt_tokens=10_000)
    assert builder._cached_tokens <= 400 + 2100 and len(builder._cache) <= 2  # the oldest pieces went


def test_an_open_final_message_comes_from_cached_pieces_and_shares_the_replys_prefix(tokenizer, monkeypatch):
    """The end-of-turn score's prompt (the user's words so far, left open) is the reply's prompt up to that message."""
    builder = PromptBuilder(tokenizer)
    messages = conversation(4)
    reply = builder.build(messages, default_system=None, max_prompt_tokens=10_000).token_ids
    encoded = []
    encode = tokenizer.encode
    monkeypatch.setattr(tokenizer, "encode", lambda text, **kw: encoded.append(text) or encode(text, **kw))
    opened = messages[:-1] + [{"role": "user", "content": "what is the capital of", "prefix": True}]
    score = builder.build(opened, default_system=None, max_prompt_tokens=10_000).token_ids
    assert encoded == ["<|im_start|>user\nwhat is the capital of"]  # the open message alone is new
    assert score == render(tokenizer, opened)
    shared = len(reply) - len(encode("<|im_start|>user\nLast question?<|im_end|>\n<|im_start|>assistant\n"))
    assert score[:shared] == reply[:shared]


def counting(function, calls: list):
    def counted(*args, **kwargs):
        if kwargs.get("tokenize", True):
            calls.append(args)
        return function(*args, **kwargs)
    return counted


POSITIONAL_TEMPLATE = ("{% for m in messages %}<|im_start|>{{ m.role }} {{ loop.index }}\n{{ m.content }}<|im_end|>\n"
                       "{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}")


def test_a_template_whose_messages_depend_on_their_place_is_rendered_whole(prepared, monkeypatch):
    tokenizer = AutoTokenizer.from_pretrained(str(prepared.llm_dir))
    tokenizer.chat_template = POSITIONAL_TEMPLATE  # a message renders differently at each place
    builder = PromptBuilder(tokenizer)
    assert not builder.pieces_add_up
    monkeypatch.setattr(builder, "pieces_add_up", True)  # even so, the check of each prompt catches it
    rendered_each_time = functools.partial(build_prompt, tokenizer)
    assert all(outcome(builder.build, *case) == outcome(rendered_each_time, *case) for case in examples())
