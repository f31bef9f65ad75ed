"""What the assistant is, told to the model beside a question whether it is a person (``identity_hints``)."""

from __future__ import annotations

import pytest

from app.engine.identity import asks_what_it_is, with_identity_hint, without_identity_hint


@pytest.mark.parametrize("question", [
    "Are you a real person?", "Are you human?", "Am I talking to a real person?", "Are you alive?", "Are you a robot?",
    "Where do you live?", "Is this a real person?", "Are you even human?", "Are you a real live person?",
    "Is there a real person I can talk to?", "Am I speaking with a human right now?", "Are you a person or a machine?",
    "Are you real?", "are you a bot", "Are you an AI?", "Are you a man or a woman?", "Is this a bot?",
    "Are you a human being?", "Am I talking to a computer?", "Hello. Are you a real person or a recording?",
    "Are you a living being?", "Are you conscious?", "Do you have a body?", "Is there a human there?",
    "Do you have feelings?", "I\u2019m talking to a real person, right?",
    "Is this a real human I'm talking to?",
])  # fmt: skip
def test_a_question_whether_the_assistant_is_a_person_is_known(question: str) -> None:
    assert asks_what_it_is(question)


@pytest.mark.parametrize("message", [
    "Are you ChatGPT?", "Are you there?", "Are you happy?", "Are you a good cook?", "Is it alive?", "Are you sure?",
    "Are humans mammals?", "Is the man there?", "Is this a computer question?", "Is this a man's job?",
    "Are you people going to fix it?", "Are you really going to do that?", "Is that real?", "Are you real sure?",
    "My plant looks sad. Is it alive?", "Are you a fan of jazz?", "Is that human nature?", "Are you a computer scientist?",
    "Where does my sister live?", "Do you have a body shop nearby?", "Is there a computer there?",
])  # fmt: skip
def test_other_questions_are_not_taken_for_it(message: str) -> None:
    assert not asks_what_it_is(message)


def test_the_hint_is_added_to_the_newest_user_message_only() -> None:
    system = {"role": "system", "content": "Be brief."}
    asked = [system, {"role": "user", "content": "Are you human?"}]
    hinted = with_identity_hint(asked)
    assert hinted[:-1] == asked[:-1] and hinted[-1]["content"].startswith("Are you human?")
    assert "not a person" in hinted[-1]["content"] and asked[-1]["content"] == "Are you human?"  # a copy, not changed
    assert without_identity_hint(hinted[-1]["content"]) == "Are you human?"
    answered = [*asked, {"role": "assistant", "content": "I'm a voice assistant."}]
    assert with_identity_hint(answered) == answered  # an earlier question is not hinted again
    other = [system, {"role": "user", "content": "Are you there?"}]
    assert with_identity_hint(other) == other


async def test_a_reply_on_the_servers_prompt_gets_the_hint_and_one_on_the_clients_does_not(tmp_path) -> None:
    """The session's wiring, on the realtime rig's fake engine: the last message of each reply the engine was asked
    for, and the conversation, which keeps the user's own words."""
    from realtime_fakes import make_rig

    rig = await make_rig(tmp_path)
    try:
        async def last_message_of_reply(text: str, create: dict) -> str:
            count = len(rig.engine.requests)
            content = [{"type": "input_text", "text": text}]
            await rig.send({"type": "conversation.item.create", "item": {"type": "message", "role": "user",
                                                                          "content": content}})  # fmt: skip
            await rig.send(create)
            await rig.outbox.wait_for("response.done", count=count + 1)
            return rig.engine.requests[-1]["messages"][-1]["content"]

        plain = {"type": "response.create"}
        hinted = await last_message_of_reply("Are you human?", plain)
        assert hinted.startswith("Are you human?") and "not a person" in hinted
        assert await last_message_of_reply("Are you there?", plain) == "Are you there?"
        own = {"type": "response.create", "response": {"instructions": "Say yes."}}
        assert await last_message_of_reply("Are you human?", own) == "Are you human?"  # a task of the client's
        assert all("not a person" not in str(m["content"]) for m in rig.session.conversation.context())
        await rig.send({"type": "session.update", "session": {"type": "realtime", "instructions": "You are Anna."}})
        assert await last_message_of_reply("Are you human?", plain) == "Are you human?"  # the client's character
    finally:
        await rig.close()
