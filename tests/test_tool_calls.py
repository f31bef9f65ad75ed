"""Reading calls out of a streamed reply, and checking them against the declared tools."""

from __future__ import annotations

import json

import pytest

from app.engine.api import Delta
from app.engine.tool_calls import (
    MalformedCall,
    opens_call,
    StructuredCalls,
    ToolCall,
    ToolCallParser,
    check_call,
    forced_call_prefix,
    template_supports_tools,
    template_tools,
)

TIMER = {
    "type": "function",
    "name": "set_timer",
    "description": "Start a countdown timer.",
    "parameters": {
        "type": "object",
        "properties": {"seconds": {"type": "integer", "minimum": 1}},
        "required": ["seconds"],
    },
}


def stream(text: str, step: int) -> list:
    """Feed ``text`` in pieces of ``step`` characters, as a token stream would arrive."""
    parser = ToolCallParser()
    pieces = []
    for i in range(0, len(text), step):
        pieces += parser.feed(text[i : i + step])
    return pieces + parser.finish()


def calls(pieces: list) -> list[tuple[str, dict]]:
    return [(p.name, json.loads(p.arguments)) for p in pieces if isinstance(p, ToolCall)]


def spoken(pieces: list) -> str:
    return "".join(p for p in pieces if isinstance(p, str))


@pytest.mark.parametrize("step", [1, 3, 7, 1000])
def test_tagged_calls_are_read_whole_from_any_split(step):
    reply = (
        '<tool_call>\n{"name": "set_timer", "arguments": {"seconds": 120}}\n</tool_call>\n'
        '<tool_call>\n{"name": "get_time", "arguments": {}}\n</tool_call>'
    )
    pieces = stream(reply, step)
    assert calls(pieces) == [("set_timer", {"seconds": 120}), ("get_time", {})]
    assert spoken(pieces).strip() == ""


@pytest.mark.parametrize("step", [1, 4, 1000])
def test_fenced_and_bare_json_calls_at_the_start_count(step):
    fenced = '```json\n{\n  "name": "get_weather",\n  "arguments": {"city": "Paris"}\n}\n```'
    assert calls(stream(fenced, step)) == [("get_weather", {"city": "Paris"})]
    bare = '{"name": "set_timer", "arguments": {"seconds": 10, "label": "tea {hot}"}}'
    pieces = stream(bare, step)
    assert calls(pieces) == [("set_timer", {"seconds": 10, "label": "tea {hot}"})]
    assert spoken(pieces) == ""


@pytest.mark.parametrize("step", [1, 5, 1000])
def test_text_before_a_call_is_spoken_and_the_call_never_is(step):
    pieces = stream('Sure, starting it now. <tool_call>{"name": "set_timer", "arguments": {"seconds": 5}}</tool_call>', step)
    assert spoken(pieces) == "Sure, starting it now. "
    assert calls(pieces) == [("set_timer", {"seconds": 5})]


@pytest.mark.parametrize("step", [1, 1000])
def test_plain_replies_pass_through_unchanged(step):
    for reply in ["The capital of France is Paris.", "Use <b> for bold, or a < b.", "Code: ```x = 1```", "{braces} in prose"]:
        pieces = stream(reply, step)
        assert spoken(pieces) == reply and not calls(pieces)


@pytest.mark.parametrize("step", [1, 2, 5, 1000])
def test_a_reply_of_prose_in_a_fence_is_said_without_the_fence(step):
    """The 1.5B with the page's tools wrote "```I can't check the time from here.```": shown with its backticks, and
    silent, as a speech synthesiser drops what a fence holds."""
    for reply, said in [("```I can't check the time from here.```", "I can't check the time from here."),
                        ("```text\nSorry, I can't set timers from here.\n```", "Sorry, I can't set timers from here.\n"),
                        ("```Sure!```", "Sure!")]:
        pieces = stream(reply, step)
        assert spoken(pieces) == said and not calls(pieces), (reply, pieces)


def test_text_that_might_start_a_call_is_held_until_decided():
    parser = ToolCallParser()
    assert parser.feed("<tool") == []
    assert parser.feed("_ca") == []
    parser = ToolCallParser()
    assert parser.feed("Hello <to") == ["Hello "]
    assert parser.feed("day") == ["<today"]


def test_a_call_cut_off_or_broken_is_reported_not_spoken():
    pieces = stream('<tool_call>{"name": "set_timer", "arguments": {"seco', 4)
    assert [type(p) for p in pieces] == [MalformedCall]
    pieces = stream("<tool_call>{name: set_timer}</tool_call>", 1000)
    assert isinstance(pieces[0], MalformedCall) and "not JSON" in pieces[0].reason


def test_arguments_written_as_a_json_string_are_accepted():
    pieces = stream('<tool_call>{"name": "set_timer", "arguments": "{\\"seconds\\": 3}"}</tool_call>', 1000)
    assert calls(pieces) == [("set_timer", {"seconds": 3})]


def test_calls_are_checked_against_the_declared_schema():
    assert check_call(ToolCall("set_timer", '{"seconds": 30}'), [TIMER]) is None
    assert "not a declared tool" in check_call(ToolCall("launch", "{}"), [TIMER])
    assert "'seconds' is a required property" in check_call(ToolCall("set_timer", "{}"), [TIMER])
    assert "is not of type 'integer'" in check_call(ToolCall("set_timer", '{"seconds": "ten"}'), [TIMER])
    clock = {"name": "get_current_time", "parameters": {"type": "object", "properties": {}}}
    assert check_call(ToolCall("get_current_time", "{}"), [clock]) is None
    echo = '{"type": "object", "properties": {}}'
    assert "parameter schema" in check_call(ToolCall("get_current_time", echo), [clock])
    shapes = {"name": "draw", "parameters": {"type": "object", "properties": {"type": {}, "properties": {}}}}
    assert check_call(ToolCall("draw", '{"type": "circle", "properties": {"r": 2}}'), [shapes]) is None


def test_declarations_and_forced_prefixes_use_the_template_format():
    assert template_tools([TIMER]) == [
        {"type": "function", "function": {"name": "set_timer", "description": "Start a countdown timer.",
                                          "parameters": TIMER["parameters"]}}
    ]
    assert forced_call_prefix("auto") == ""
    assert forced_call_prefix("required") == '<tool_call>\n{"name": "'
    named = forced_call_prefix({"type": "function", "name": "set_timer"})
    pieces = stream(named + '{"seconds": 9}}\n</tool_call>', 2)
    assert calls(pieces) == [("set_timer", {"seconds": 9})]


def test_which_templates_have_a_tool_format(settings, prepared):
    from transformers import AutoTokenizer

    from app.models.prepare import prepare_models

    qwen = prepare_models(settings.model_copy(update={"llm_model": "qwen2.5-0.5b"})).llm_dir
    assert template_supports_tools(AutoTokenizer.from_pretrained(str(qwen)).chat_template)
    assert not template_supports_tools(AutoTokenizer.from_pretrained(str(prepared.llm_dir)).chat_template)


def test_structured_call_streams_read_like_the_model_s_own_format():
    writer = StructuredCalls()
    text = writer.feed([{"index": 0, "id": "c1", "type": "function", "function": {"name": "set_timer", "arguments": ""}}])
    text += writer.feed([{"index": 0, "function": {"arguments": '{"seco'}}])
    text += writer.feed([{"index": 0, "function": {"arguments": 'nds": 60}'}}])
    text += writer.feed([{"index": 1, "function": {"name": "get_current_time"}}])
    text += writer.close()
    assert calls(stream(text, 3)) == [("set_timer", {"seconds": 60}), ("get_current_time", {})]


@pytest.fixture(scope="module")
def qwen_dir(settings) -> str:
    from app.models.prepare import prepare_models

    return str(prepare_models(settings.model_copy(update={"llm_model": "qwen2.5-0.5b"})).llm_dir)


def test_prompts_declare_tools_and_replay_calls_and_results_in_the_template_format(qwen_dir):
    from transformers import AutoTokenizer

    from app.engine.prompt import build_prompt

    tokenizer = AutoTokenizer.from_pretrained(qwen_dir)
    messages = [
        {"role": "user", "content": "Set a timer for a minute."},
        {"role": "assistant", "content": "", "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "set_timer", "arguments": '{"seconds": 60}'}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": '{"status": "started"}'},
        {"role": "assistant", "content": forced_call_prefix("required"), "prefix": True},
    ]
    rendered = build_prompt(tokenizer, messages, default_system="Be brief.", max_prompt_tokens=2000,
                            tools=template_tools([TIMER]))
    text = tokenizer.decode(rendered.token_ids)
    assert '"name": "set_timer"' in text.split("\n</tools>")[0]  # declared in the system turn
    assert '<tool_call>\n{"name": "set_timer", "arguments": {"seconds": 60}}\n</tool_call>' in text
    assert '<tool_response>\n{"status": "started"}\n</tool_response>' in text
    assert text.endswith('<|im_start|>assistant\n<tool_call>\n{"name": "')  # continued, not closed


async def test_the_engine_streams_a_call_the_parser_reads(settings, qwen_dir):
    from app.engine import Priority, SamplingParams
    from app.engine.engine import LocalEngine

    engine = LocalEngine(settings.model_copy(update={"llm_model": "qwen2.5-0.5b", "llm_tools": "on"}), qwen_dir)
    await engine.start()
    try:
        parser, pieces = ToolCallParser(), []
        async for delta in engine.generate(
            messages=[{"role": "user", "content": "Set a timer for ten seconds."}],
            tools=template_tools([TIMER]), params=SamplingParams(max_tokens=48), priority=Priority.TEXT,
        ):
            pieces += parser.feed(delta.text)
        pieces += parser.finish()
        assert calls(pieces) == [("set_timer", {"seconds": 10})] and spoken(pieces).strip() == ""
    finally:
        await engine.stop()


async def test_the_first_delta_says_where_a_call_held_too_small_a_share(settings, qwen_dir):
    """``call_floor``: "Set a timer" opens a call from a large share, a question answered from the conversation does
    not (its first delta says so: the reply is for words); at or above the floor the first token is a call's opening
    ("Can you time my run?" holds about 0.39 for them, so at temperature 1 text would be drawn more often than not);
    a request with tools has no phrase limit (its calls repeat their own phrases)."""
    from app.engine import Priority, SamplingParams
    from app.engine.engine import LocalEngine

    engine = LocalEngine(settings.model_copy(update={"llm_model": "qwen2.5-0.5b", "llm_tools": "on"}), qwen_dir)
    await engine.start()
    try:
        asked = iter(range(100))

        async def first_delta(*said: str, floor: float = 0.4) -> Delta:
            turns = [{"role": "user" if i % 2 == 0 else "assistant", "content": text} for i, text in enumerate(said)]
            params = SamplingParams(temperature=1.0, max_tokens=4, call_floor=floor, phrase_repeat_limit=2)
            request_id = f"r{next(asked)}"
            async for delta in engine.generate(messages=turns, tools=template_tools([TIMER]), params=params,
                                               priority=Priority.TEXT, request_id=request_id):
                assert engine._requests[request_id].seq.texts is None  # no phrase limit with tools
                engine.cancel(request_id)
                return delta

        assert not (await first_delta("Set a timer for ten seconds.")).below_call_floor
        for _ in range(8):
            timed = await first_delta("Can you time my run?", floor=0.3)
            assert not timed.below_call_floor and opens_call(timed.text), timed.text
        recall = await first_delta("My friend's name is Kenji.", "Nice to meet Kenji!", "What is my friend's name?")
        assert recall.below_call_floor and recall.text.strip()
    finally:
        await engine.stop()


@pytest.mark.parametrize("model", ["smollm2-135m", "qwen2.5-0.5b"])
async def test_a_model_that_takes_no_tools_answers_them_with_an_error(settings, model: str):
    """SmolLM2's template has no tool format; the 0.5B's has one, which ``llm_tools=auto`` does not offer."""
    from app.engine import Priority, SamplingParams
    from app.engine.engine import LocalEngine
    from app.models.prepare import prepare_models

    own = settings.model_copy(update={"llm_model": model})
    engine = LocalEngine(own, prepare_models(own).llm_dir)
    await engine.start()
    try:
        assert not engine.supports_tools and not engine.floors_calls
        deltas = [d async for d in engine.generate(messages=[{"role": "user", "content": "Hi"}], tools=template_tools([TIMER]),
                                                   params=SamplingParams(max_tokens=4), priority=Priority.TEXT)]
        assert deltas[-1].finish_reason == "error" and "takes no tools" in deltas[-1].error
    finally:
        await engine.stop()


@pytest.mark.parametrize("step", [1, 5, 1000])
def test_a_reply_that_opens_by_repeating_a_tools_answer_is_no_speech(step):
    """After a call it did not need, the model wrote the template's tool answer back ("<tool_response> {...}"): at the
    start it is read as a call that does not parse (the reply is written again without tools), never spoken."""
    echo = '<tool_response>\n{"date": "Tuesday, December 1, 2026", "time": "4:45 PM"}\n</tool_response>'
    [piece] = stream(echo, step)
    assert isinstance(piece, MalformedCall) and "repeats a tool's answer" in piece.reason
    assert isinstance(stream(echo[:30], step)[-1], MalformedCall)  # cut short: still no speech
    later = stream(f"It is 4:45. {echo}", step)
    assert spoken(later) == f"It is 4:45. {echo}"  # after words it is text, as a later call tag is


@pytest.mark.parametrize("step", [1, 1000])
def test_the_shapes_small_models_write_instead_are_read_at_the_start(step):
    doubled = '{{"name": "set_timer", "arguments": {"seconds": 90}}}'
    assert calls(stream(doubled, step)) == [("set_timer", {"seconds": 90})]
    other_tag = '<tools>\n{"name": "get_weather", "arguments": {"city": "London"}}\n</tools>'
    assert calls(stream(other_tag, step)) == [("get_weather", {"city": "London"})]
    later = stream('It is sunny. <tools>{"name": "x"}</tools>', step)
    assert not calls(later) and spoken(later) == 'It is sunny. <tools>{"name": "x"}</tools>'


@pytest.mark.parametrize("step", [1, 1000])
def test_a_stray_closing_brace_after_a_call_is_not_spoken(step):
    pieces = stream('{"name": "get_current_time", "arguments": {}}}\nIt is noon.', step)
    assert calls(pieces) == [("get_current_time", {})] and spoken(pieces).strip() == "It is noon."


def test_only_a_marked_assistant_message_is_continued(qwen_dir):
    from transformers import AutoTokenizer

    from app.engine.prompt import build_prompt

    tokenizer = AutoTokenizer.from_pretrained(qwen_dir)
    said = [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello! How can I help?"}]
    plain = tokenizer.decode(build_prompt(tokenizer, said, default_system="Be brief.", max_prompt_tokens=500).token_ids)
    assert plain.endswith("How can I help?<|im_end|>\n<|im_start|>assistant\n")  # a new reply after it
    marked = said[:1] + [{**said[1], "prefix": True}]
    continued = tokenizer.decode(build_prompt(tokenizer, marked, default_system="Be brief.", max_prompt_tokens=500).token_ids)
    assert continued.endswith("<|im_start|>assistant\nHello! How can I help?")


def test_a_call_left_open_in_another_tag_is_not_spoken_either():
    pieces = stream('<tools>\n{"name": "get_weather", "arguments": {"ci', 5)
    assert [type(p) for p in pieces] == [MalformedCall] and spoken(pieces) == ""


def test_the_tokens_that_open_a_call_are_those_the_parser_reads_as_one():
    for piece in ("<tool_call>", "<", " <", "<tool", "```", "`", " ``", "{", "{{", '{"', " {\n", "<tools>"):
        assert opens_call(piece), piece
    for piece in ("", " ", "5", "The", " Sure", "<b>", "}", "[", "Hello {"):
        assert not opens_call(piece), piece
