"""The served model's text replies through the official SDK, for the tests that ask the real model over the server."""

from __future__ import annotations


async def text_replies(server_url: str, *turns: str) -> list[str]:
    """The replies to ``turns``, said one after another in one new conversation with text output."""
    from openai import AsyncOpenAI

    client = AsyncOpenAI(api_key="not-needed", base_url=server_url + "/v1",
                         websocket_base_url=server_url.replace("http://", "ws://") + "/v1")  # fmt: skip
    said = []
    async with client.realtime.connect(model="qwen2.5-1.5b") as connection:
        await connection.session.update(session={"type": "realtime", "output_modalities": ["text"]})
        for turn in turns:
            await connection.conversation.item.create(
                item={"type": "message", "role": "user", "content": [{"type": "input_text", "text": turn}]}
            )
            await connection.response.create()
            text = ""
            async for event in connection:
                assert event.type != "error", event
                if event.type == "response.output_text.delta":
                    text += event.delta
                if event.type == "response.done":
                    break
            said.append(text)
    return said
