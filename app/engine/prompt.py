"""Chat messages to prompt tokens, within the context limit.

A conversation can run forever: when its rendered prompt would leave no room for the reply,
the oldest turns are dropped (a turn is a user message and the replies that follow it) while
the system prompt stays, and the caller is told how many turns went.
"""

from __future__ import annotations

import json
from dataclasses import dataclass


class PromptTooLongError(ValueError):
    """Even the system prompt plus the newest message does not fit the context."""


@dataclass
class RenderedPrompt:
    token_ids: list[int]
    dropped_turns: int


def continues_reply(messages: list[dict]) -> bool:
    """A conversation that ends in an assistant message asks for that message to be continued (the reply
    starts with its text, e.g. the opening of a call the client requires), not for a new one."""
    return bool(messages) and messages[-1].get("role") == "assistant"


def _template_message(message: dict) -> dict:
    """A chat-completions message as chat templates read it: a call's arguments as an object, not JSON text."""
    calls = message.get("tool_calls")
    if not calls:
        return message
    parsed = [
        {**call, "function": {**call["function"], "arguments": json.loads(call["function"]["arguments"] or "{}")}}
        for call in calls
    ]
    return {**message, "tool_calls": parsed}


def render(tokenizer, messages: list[dict], tools: list[dict] | None = None) -> list[int]:
    """Token ids of chat-completions ``messages`` in the model's chat template, with ``tools`` (chat-completions
    shape) declared in the template's own format."""
    continued = continues_reply(messages)
    ids = tokenizer.apply_chat_template([_template_message(m) for m in messages], tools=tools or None, add_generation_prompt=not continued,
                                        continue_final_message=continued, tokenize=True, return_dict=False)  # fmt: skip
    if isinstance(ids, dict) or hasattr(ids, "keys"):
        ids = ids["input_ids"]
    return list(ids)


def build_prompt(tokenizer, messages: list[dict], *, default_system: str | None, max_prompt_tokens: int,
                 tools: list[dict] | None = None) -> RenderedPrompt:  # fmt: skip
    """Render ``messages`` (adding ``default_system`` when they have no system message), dropping
    the oldest turns until the prompt fits ``max_prompt_tokens``."""
    if not messages:
        raise ValueError("messages is empty")
    continuation = messages[-1:] if continues_reply(messages) and len(messages) > 1 else []
    messages = messages[: len(messages) - len(continuation)]
    system = [m for m in messages[:1] if m.get("role") == "system"]
    if not system and default_system:
        system = [{"role": "system", "content": default_system}]
    history = [m for m in messages if not (system and m is messages[0] and m.get("role") == "system")]
    dropped = 0
    while True:
        ids = render(tokenizer, system + history + continuation, tools)
        if len(ids) <= max_prompt_tokens:
            return RenderedPrompt(ids, dropped)
        if len(history) <= 1:
            raise PromptTooLongError(
                f"the prompt needs {len(ids)} tokens but at most {max_prompt_tokens} fit (max_seq_len minus the reply)"
            )
        # drop the oldest user message and every non-user message up to the next one
        history = history[1:]
        while len(history) > 1 and history[0].get("role") != "user":
            history = history[1:]
        dropped += 1
