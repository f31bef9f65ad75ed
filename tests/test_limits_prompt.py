"""What the assistant cannot do, said in the system prompt of a reply without tools (``limits_prompt``), and what it
is (``system_prompt``)."""

from __future__ import annotations

from functools import partial

from sdk_helpers import text_replies

from app.bench.quality import matches
from app.bench.quality_questions import DECLINES, IMPERSONATIONS, NOT_A_PERSON
from app.config import Settings

ASKED = [{"type": "input_text", "text": "Set an alarm for 6 AM."}]
SAY = {"type": "conversation.item.create", "item": {"type": "message", "role": "user", "content": ASKED}}
TOOL = {"type": "function", "name": "set_alarm", "description": "Set an alarm.",
        "parameters": {"type": "object", "properties": {"time": {"type": "string"}}, "required": ["time"]}}  # fmt: skip


def test_the_default_instructions_add_the_limits_only_without_tools() -> None:
    settings = Settings(system_prompt="Be brief.", limits_prompt="You cannot set alarms.")
    assert settings.default_instructions(tools=False) == "Be brief. You cannot set alarms."
    assert settings.default_instructions(tools=True) == "Be brief."
    assert Settings(system_prompt="Be brief.", limits_prompt="").default_instructions(tools=False) == "Be brief."


async def test_a_reply_without_tools_gets_the_limits_and_one_with_tools_or_own_instructions_does_not(tmp_path) -> None:
    """The session's wiring, on the realtime rig's fake engine: the system message of each reply the engine was asked
    for."""
    from realtime_fakes import make_rig

    rig = await make_rig(tmp_path)
    settings = rig.session.settings
    try:
        async def system_of_next_reply(create: dict) -> str:
            count = len(rig.engine.requests)
            await rig.send(SAY)
            await rig.send(create)
            await rig.outbox.wait_for("response.done", count=count + 1)
            return rig.engine.requests[-1]["messages"][0]["content"]

        plain = {"type": "response.create"}
        assert await system_of_next_reply(plain) == f"{settings.system_prompt} {settings.limits_prompt}"
        with_tools = {"type": "response.create", "response": {"tools": [TOOL]}}
        assert await system_of_next_reply(with_tools) == settings.system_prompt  # the tool format follows it
        await rig.send({"type": "session.update", "session": {"type": "realtime", "tools": [TOOL]}})
        assert await system_of_next_reply(plain) == settings.system_prompt
        await rig.send({"type": "session.update", "session": {"type": "realtime", "tools": [],
                                                              "instructions": "You are a pirate."}})  # fmt: skip
        assert await system_of_next_reply(plain) == "You are a pirate."  # the client's own prompt, as it wrote it
        own = {"type": "response.create", "response": {"instructions": "Answer in French."}}
        assert await system_of_next_reply(own) == "Answer in French."
    finally:
        await rig.close()


async def test_the_served_model_says_it_cannot_and_still_talks_recalls_and_knows_what_it_is(tools_server_url: str) -> None:
    """The real 1.5B through the real server, greedy, no tools: requests it cannot meet are declined, not pretended
    ("Sure, I'll call a taxi for you." before); what talk meets is not declined nor echoed ("I'm sorry, but I can't
    cheer you up.", "I'm a teacher." before the prompt's examples, "I can't cook, sorry." before it said to do what
    words can); a lasting fact of the world is answered, not taken for a live one ("I can't check the height of Mount
    Everest from here." before); what the user said in an earlier turn is still answered from; and it does not take another
    assistant's name ("I was created by OpenAI." before the system prompt said what it is, "Yes, I was made by
    OpenAI." before it named the makers it is not made by) nor says it is a person."""
    replies = partial(text_replies, tools_server_url)

    for request in ("Call a taxi for me.", "What are today's top headlines?", "Set an alarm for 6 AM.",
                    "Remind me in an hour to check the oven.", "Add milk to my shopping list."):  # "Sure, I'll ..." before
        (reply,) = await replies(request)
        assert matches(reply, DECLINES), (request, reply)
    for request in ("Say something to cheer me up.", "How are you today?", "I'm a teacher.",
                    "What should I cook for dinner tonight?"):
        (reply,) = await replies(request)
        assert reply.strip() and not matches(reply, DECLINES) and not matches(reply, [request]), (request, reply)
    for request, answer in (("How high is Mount Everest?", "8,848"), ("What colour is Mars?", "red"),
                            ("How far away is the moon?", "384,400")):  # "I can't check the height ..." before
        (reply,) = await replies(request)
        assert matches(reply, [answer]) and not matches(reply, DECLINES), (request, reply)
    reply = (await replies("I live in Lisbon.", "Which city do I live in?"))[-1]
    assert matches(reply, ["lisbon"]) and not matches(reply, DECLINES), reply
    for request in ("Who made you?", "Which language model are you?"):
        (reply,) = await replies(request)
        assert reply.strip() and not matches(reply, IMPERSONATIONS), (request, reply)
    for request in ("Are you Siri?", "Were you made by OpenAI?"):
        (reply,) = await replies(request)
        assert matches(reply, ["no", "not"]) and not matches(reply, ["yes"]), (request, reply)
    for request in ("Are you human?", "Am I talking to a real person?"):  # "Yes, I am a human." before answer_hints
        (reply,) = await replies(request)
        assert matches(reply, NOT_A_PERSON) and not matches(reply, ["yes"]), (request, reply)
