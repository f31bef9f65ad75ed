"""Function calling in the realtime session, with a scripted engine (no models): declared tools reach the
model, its calls become function_call items (never text or speech), outputs come back as tool messages,
and every mistake is an error event, but for a call to a tool nobody declared, which is answered again without tools.
Every event sent is checked against the SDK's types."""

from __future__ import annotations

import json

from realtime_fakes import Rig

from app.answers.notes import MUSIC_NOTE
from app.engine.tool_calls import forced_call_prefix

TIMER = {
    "type": "function",
    "name": "set_timer",
    "description": "Start a countdown timer.",
    "parameters": {"type": "object", "properties": {"seconds": {"type": "integer"}}, "required": ["seconds"]},
}
CALL = '<tool_call>\n{"name": "set_timer", "arguments": {"seconds": 120}}\n</tool_call>'


async def ask(rig: Rig, text: str, **response: object) -> dict:
    await rig.send({"type": "conversation.item.create", "item": {"type": "message", "role": "user",
                    "content": [{"type": "input_text", "text": text}]}})  # fmt: skip
    count = len(rig.outbox.of("response.done")) + 1
    await rig.send({"type": "response.create", **({"response": response} if response else {})})
    return await rig.outbox.wait_for("response.done", count)


async def declare(rig: Rig, **session: object) -> None:
    await rig.send({"type": "session.update", "session": {"output_modalities": ["text"], "tools": [TIMER], **session}})
    updated = await rig.outbox.wait_for("session.updated")
    assert updated["session"]["tools"][0]["name"] == "set_timer"


async def test_a_call_becomes_a_function_call_item_and_its_output_is_answered(rig: Rig):
    await declare(rig)
    rig.engine.reply = CALL
    done = await ask(rig, "Set a timer for two minutes.")
    assert done["response"]["status"] == "completed"
    [call] = done["response"]["output"]
    assert (call["type"], call["name"], json.loads(call["arguments"])) == ("function_call", "set_timer", {"seconds": 120})
    assert rig.engine.requests[-1]["tools"][0]["function"]["name"] == "set_timer"  # declared in the template's shape
    kinds = rig.outbox.types()
    assert "response.output_text.delta" not in kinds and "response.content_part.added" not in kinds  # never shown
    args_done = rig.outbox.of("response.function_call_arguments.done")[0]
    assert args_done["call_id"] == call["call_id"] and args_done["item_id"] == call["id"]

    await rig.send({"type": "conversation.item.create",
                    "item": {"type": "function_call_output", "call_id": call["call_id"], "output": '{"status": "started"}'}})
    rig.engine.reply = "Your two minute timer is running."
    count = len(rig.outbox.of("response.done")) + 1
    await rig.send({"type": "response.create"})
    answer = await rig.outbox.wait_for("response.done", count)
    assert answer["response"]["output"][0]["content"][0]["text"] == "Your two minute timer is running."
    messages = rig.engine.requests[-1]["messages"]
    assert messages[-2]["tool_calls"][0]["function"] == {"name": "set_timer", "arguments": '{"seconds": 120}'}
    assert messages[-1] == {"role": "tool", "tool_call_id": call["call_id"], "content": '{"status": "started"}'}
    roles = [m.role for m in rig.history.load_sync(rig.session.id)]
    assert roles == ["user", "function_call", "function_call_output", "assistant"]


async def test_text_before_a_call_is_a_message_item_then_the_call(rig: Rig):
    """An engine that does not floor the first token (a remote one) may write words and then a call."""
    rig.engine.floors_calls = False
    await declare(rig)
    rig.engine.reply = "Starting it now. " + CALL
    done = await ask(rig, "Timer, two minutes.")
    message, call = done["response"]["output"]
    assert message["content"][0]["text"] == "Starting it now." and call["type"] == "function_call"
    assert [e["output_index"] for e in rig.outbox.of("response.output_item.added")] == [0, 1]


async def test_tool_choice_none_and_required_shape_the_request(rig: Rig):
    await declare(rig, tool_choice="none")
    await ask(rig, "Hi")
    assert rig.engine.requests[-1]["tools"] is None
    assert rig.engine.requests[-1]["params"].phrase_repeat_limit == rig.session.settings.phrase_repeat_limit == 2
    rig.engine.reply = '{"seconds": 120}}\n</tool_call>'
    done = await ask(rig, "Two minutes", tool_choice={"type": "function", "name": "set_timer"})
    assert done["response"]["output"][0]["name"] == "set_timer"
    continued = rig.engine.requests[-1]["messages"][-1]
    assert continued["role"] == "assistant" and continued["content"].startswith('<tool_call>\n{"name": "set_timer"')


async def test_a_call_the_client_cannot_run_fails_the_response_where_a_call_was_required(rig: Rig):
    await declare(rig)
    for call in ('<tool_call>{"name": "set_timer", "arguments": {"seconds": "soon"}}</tool_call>',
                 '<tool_call>{"name": "launch_rocket", "arguments": {}}</tool_call>'):
        rig.engine.reply = call
        done = await ask(rig, "Go", tool_choice="required")  # a call the client requires: no answer in words instead
        assert done["response"]["status"] == "failed"
        assert done["response"]["status_details"]["error"]["code"] == "invalid_tool_call"
        assert rig.outbox.of("error")[-1]["error"]["code"] == "invalid_tool_call"


async def test_a_call_the_client_cannot_run_is_answered_again_without_tools(rig: Rig):
    """ "Play some jazz" beside a timer: the model called ``play_music``, which the client never declared, or wrote a
    call that does not parse, or called the timer without its seconds ("My favourite colour is green."); the reply is
    written again as one without tools (the system prompt saying what it cannot do), not failed in silence."""
    await declare(rig)
    settings = rig.session.settings
    for call in ('<tool_call>{"name": "play_music", "arguments": {"genre": "jazz"}}</tool_call>',
                 '<tool_call>{{"name": "play_music", "arguments": {"genre": "jazz"}}}}</tool_call>',  # does not parse
                 '<tool_call>{"name": "set_timer", "arguments": {"seconds": "soon"}}</tool_call>'):  # breaks the schema
        rig.engine.reply, rig.engine.reply_without_tools = call, "I can't play music here."
        errors = len(rig.outbox.of("error"))
        done = await ask(rig, "Play some jazz.")
        assert done["response"]["status"] == "completed" and len(rig.outbox.of("error")) == errors
        [message] = done["response"]["output"]
        assert message["type"] == "message" and message["content"][0]["text"] == "I can't play music here."
        first, again = rig.engine.requests[-2:]
        assert first["id"] == again["id"]  # one reply: its first request ended, written again
        assert first["tools"] and again["tools"] is None
        assert first["messages"][0]["content"] == settings.system_prompt
        assert again["messages"][0]["content"] == settings.default_instructions(tools=False)
        assert again["messages"][1:-1] == first["messages"][1:-1]  # the same conversation; the request gets its answer
        assert again["messages"][-1]["content"] == first["messages"][-1]["content"] + MUSIC_NOTE.note  # in words


async def test_a_reply_the_model_means_in_words_is_written_without_tools(rig: Rig):
    """The call openings held less than ``tool_call_floor`` at the first token: the model answers in words, which with
    tools in its prompt it spent on them ("You can call the get_current_time function ..." for "What is my friend's
    name?"), so the reply is written again without tools; at the floor the engine draws a call's opening, the call
    stands and the reply without tools is cancelled."""
    await declare(rig)
    settings = rig.session.settings
    rig.engine.reply, rig.engine.reply_without_tools = "You can call the get_current_time function.", "It's Kenji."
    rig.engine.call_share = settings.tool_call_floor / 2
    done = await ask(rig, "What's my friend's name?")
    assert done["response"]["output"][0]["content"][0]["text"] == "It's Kenji."
    first, again = rig.engine.requests[-1], rig.engine.words_requests[-1]  # started beside it, not after
    assert again["id"] == f"{first['id']}-words" and first["params"].call_floor == settings.tool_call_floor > 0
    assert first["tools"] and again["tools"] is None
    assert again["messages"][0]["content"] == settings.default_instructions(tools=False)
    rig.engine.reply, rig.engine.call_share = CALL, settings.tool_call_floor
    [call] = (await ask(rig, "Set a timer for two minutes."))["response"]["output"]
    assert call["type"] == "function_call" and json.loads(call["arguments"]) == {"seconds": 120}
    assert rig.engine.requests[-1]["tools"] and rig.engine.words_requests[-1]["id"] in rig.engine.cancelled


async def test_a_reply_that_repeats_the_tools_answer_is_written_again_without_tools(rig: Rig):
    """After a call it did not need ("My car is blue." -> the clock), the model wrote the tool's answer back in the
    template's tags: never spoken, the reply after the output is written again without tools."""
    await declare(rig)
    rig.engine.reply = CALL
    [call] = (await ask(rig, "My car is blue."))["response"]["output"]
    await rig.send({"type": "conversation.item.create",
                    "item": {"type": "function_call_output", "call_id": call["call_id"], "output": '{"status": "started"}'}})
    rig.engine.reply = '<tool_response>\n{"status": "started"}\n</tool_response>'
    rig.engine.reply_without_tools = "Blue is a lovely colour for a car."
    count = len(rig.outbox.of("response.done")) + 1
    await rig.send({"type": "response.create"})
    answer = await rig.outbox.wait_for("response.done", count)
    assert answer["response"]["status"] == "completed"
    assert answer["response"]["output"][0]["content"][0]["text"] == "Blue is a lovely colour for a car."
    assert not any("tool_response" in e.get("delta", "") for e in rig.outbox.of("response.output_text.delta"))


async def test_an_unusable_call_after_one_that_stood_is_left_out(rig: Rig):
    """The model ran on past its call (a second one with the tool's schema as its arguments): with tool choice auto
    the call made stands and the reply completes; where a call was required the reply fails as before."""
    await declare(rig)
    ran_on = '\n<tool_call>\n{"name": "set_timer", "arguments": {"type": "object"}}\n</tool_call>'
    rig.engine.reply = CALL + ran_on
    errors = len(rig.outbox.of("error"))
    done = await ask(rig, "Wake me up at seven.")
    assert done["response"]["status"] == "completed" and len(rig.outbox.of("error")) == errors
    assert [(item["type"], item["name"]) for item in done["response"]["output"]] == [("function_call", "set_timer")]
    rig.engine.reply = CALL.removeprefix(forced_call_prefix("required")) + ran_on  # continued from inside the call
    done = await ask(rig, "Wake me up at seven.", tool_choice="required")
    assert done["response"]["status"] == "failed"
    assert done["response"]["status_details"]["error"]["code"] == "invalid_tool_call"


async def test_a_call_from_a_split_share_for_its_tools_name_is_answered_without_tools(rig: Rig):
    """``tool_name_floor``: asked for something no declared tool does, the model calls the likeliest one ("Call a taxi
    for me." -> ``set_timer``, 0.54 of its probability for the name); below the floor that call is one the client cannot
    run and the reply is written again without tools; at the floor and above, the call stands."""
    await declare(rig)
    settings = rig.session.settings
    opening = forced_call_prefix("required")
    rig.engine.reply, rig.engine.reply_without_tools = CALL, "I can't call a taxi, sorry."
    rig.engine.end_scores[opening] = 0.54  # the fake's answer to the probe: this share for the tool's name
    done = await ask(rig, "Call a taxi for me.")
    assert [item["type"] for item in done["response"]["output"]] == ["message"]
    assert done["response"]["output"][0]["content"][0]["text"] == "I can't call a taxi, sorry."
    [probe] = [p for p in rig.engine.probes if p["messages"][-1]["content"] == opening]
    assert probe["messages"][-1] == {"role": "assistant", "content": opening, "prefix": True} and probe["tools"]
    assert probe["params"].token_probs == (ord("s"),)  # set_timer's first token (the fake: one per character)
    rig.engine.end_scores[opening] = settings.tool_name_floor
    done = await ask(rig, "Set a timer for two minutes.")
    assert [item["type"] for item in done["response"]["output"]] == ["function_call"]


async def test_a_call_with_a_number_the_model_guessed_is_answered_without_tools(rig: Rig):
    """``tool_value_floor``: asked for what no number of the tool can say, the model guesses one ("Wake me up at seven
    tomorrow." -> ``set_timer`` for 3600 seconds, 0.33 of its probability for the first digit); below the floor that
    call is one the client cannot run and the reply is written again without tools; at the floor, the call stands."""
    await declare(rig)
    settings = rig.session.settings
    written = forced_call_prefix({"name": "set_timer"}) + '{"seconds": '  # the call up to its number
    rig.engine.reply, rig.engine.reply_without_tools = CALL, "I can't set alarms, sorry."
    rig.engine.end_scores[forced_call_prefix("required")] = 1.0  # the name: the timer's own
    rig.engine.end_scores[written] = 0.33
    done = await ask(rig, "Wake me up at seven tomorrow.")
    assert [item["type"] for item in done["response"]["output"]] == ["message"]
    assert done["response"]["output"][0]["content"][0]["text"] == "I can't set alarms, sorry."
    [probe] = [p for p in rig.engine.probes if p["messages"][-1]["content"] == written]
    assert probe["params"].token_probs == (ord("1"),) and probe["tools"]  # 120's first token (the fake: a character)
    rig.engine.end_scores[written] = settings.tool_value_floor
    done = await ask(rig, "Set a timer for two minutes.")
    assert [item["type"] for item in done["response"]["output"]] == ["function_call"]


def test_the_numbers_of_a_calls_arguments_are_asked_after_the_arguments_written_before_them() -> None:
    from app.web.reply import _numbers

    assert _numbers('{"item": "apples", "quantity": 3, "urgent": true, "at": {"h": 7}, "price": 1.5}') == [
        ("quantity", '{"item": "apples", "quantity": ', 3), ("price", '{"item": "apples", "quantity": 3, "urgent": true, '
                                                                      '"at": {"h": 7}, "price": ', 1.5)]  # fmt: skip
    assert _numbers('{"seconds": 120}') == [("seconds", '{"seconds": ', 120)]
    assert _numbers("not json") == [] and _numbers("[1, 2]") == []


async def test_outputs_need_a_call_and_tools_need_a_model_that_has_a_format(rig: Rig):
    await rig.send({"type": "conversation.item.create",
                    "item": {"type": "function_call_output", "call_id": "call_nope", "output": "{}"}})
    assert rig.outbox.of("error")[-1]["error"]["code"] == "item_not_found"
    rig.engine.supports_tools = False
    await rig.send({"type": "session.update", "session": {"tools": [TIMER]}})
    assert rig.outbox.of("error")[-1]["error"]["code"] == "tools_unsupported"
    await rig.send({"type": "response.create", "response": {"tools": [TIMER]}})
    assert rig.outbox.of("error")[-1]["error"]["code"] == "tools_unsupported"


async def test_a_seeded_call_and_its_output_are_replayed_to_the_model(rig: Rig):
    await rig.send({"type": "conversation.item.create", "item": {"type": "function_call", "call_id": "call_1",
                    "name": "set_timer", "arguments": '{"seconds": 5}'}})  # fmt: skip
    await rig.send({"type": "conversation.item.create",
                    "item": {"type": "function_call_output", "call_id": "call_1", "output": "done"}})
    await declare(rig)
    await ask(rig, "Did it work?")
    messages = rig.engine.requests[-1]["messages"]
    assert [m["role"] for m in messages] == ["system", "assistant", "tool", "user"]
