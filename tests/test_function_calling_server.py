"""Function calling against the real server on 127.0.0.1 with the packaged Qwen2.5 1.5B (a model with a
tool format), held by the official ``openai`` SDK: a declared tool is called, the client answers with
its output, and the answer is spoken. Every event sent validates against the SDK's server-event union."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.usefixtures("sdk_checked_events")


TIMER = {
    "type": "function",
    "name": "set_timer",
    "description": "Start a countdown timer on the user's screen.",
    "parameters": {
        "type": "object",
        "properties": {"seconds": {"type": "integer", "description": "Length of the timer in seconds"}},
        "required": ["seconds"],
    },
}


@pytest.fixture(scope="module")
def base_url(tools_server_url: str) -> str:
    return tools_server_url


async def test_the_sdk_declares_a_tool_runs_the_call_and_hears_the_answer(base_url: str):
    from openai import AsyncOpenAI

    client = AsyncOpenAI(api_key="not-needed", base_url=base_url + "/v1",
                         websocket_base_url=base_url.replace("http://", "ws://") + "/v1")
    async with client.realtime.connect(model="qwen2.5-1.5b") as connection:
        await connection.session.update(session={"type": "realtime", "output_modalities": ["audio"], "tools": [TIMER],
                                                 "tool_choice": "auto"})  # fmt: skip
        await connection.conversation.item.create(
            item={"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Set a timer for ten seconds."}]}
        )
        await connection.response.create()
        calls, spoken = [], ""
        async for event in connection:
            assert event.type != "error", event
            if event.type == "response.function_call_arguments.done":
                calls.append(event)
            if event.type == "response.output_audio_transcript.delta":
                spoken += event.delta
            if event.type == "response.done":
                assert event.response.status == "completed"
                assert [item.type for item in event.response.output] == ["function_call"]
                break
        assert [(c.name, json.loads(c.arguments)) for c in calls] == [("set_timer", {"seconds": 10})]
        assert "tool_call" not in spoken and "{" not in spoken  # a call is never spoken

        await connection.conversation.item.create(
            item={"type": "function_call_output", "call_id": calls[0].call_id, "output": '{"status": "started"}'}
        )
        await connection.response.create()
        audio_bytes, transcript = 0, ""
        async for event in connection:
            assert event.type != "error", event
            if event.type == "response.output_audio.delta":
                audio_bytes += len(event.delta) * 3 // 4
            if event.type == "response.output_audio_transcript.delta":
                transcript += event.delta
            if event.type == "response.done":
                assert event.response.status in ("completed", "incomplete")
                assert event.response.output[0].type == "message"
                break
        assert transcript.strip() and "tool_call" not in transcript and "{" not in transcript
        assert audio_bytes > 24000  # over half a second of 24 kHz PCM16: the answer was spoken
