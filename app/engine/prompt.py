"""Chat messages to prompt tokens, within the context limit.

A conversation can run forever: when its rendered prompt would leave no room for the reply,
the oldest turns are dropped (a turn is a user message and the replies that follow it) while
the system prompt stays, and the caller is told how many turns went.
"""

from __future__ import annotations

from dataclasses import dataclass


class PromptTooLongError(ValueError):
    """Even the system prompt plus the newest message does not fit the context."""


@dataclass
class RenderedPrompt:
    token_ids: list[int]
    dropped_turns: int


def render(tokenizer, messages: list[dict]) -> list[int]:
    ids = tokenizer.apply_chat_template(messages, add_generation_prompt=True, tokenize=True, return_dict=False)
    if isinstance(ids, dict) or hasattr(ids, "keys"):
        ids = ids["input_ids"]
    return list(ids)


def build_prompt(tokenizer, messages: list[dict], *, default_system: str | None, max_prompt_tokens: int) -> RenderedPrompt:
    """Render ``messages`` (adding ``default_system`` when they have no system message), dropping
    the oldest turns until the prompt fits ``max_prompt_tokens``."""
    if not messages:
        raise ValueError("messages is empty")
    system = [m for m in messages[:1] if m.get("role") == "system"]
    if not system and default_system:
        system = [{"role": "system", "content": default_system}]
    history = [m for m in messages if not (system and m is messages[0] and m.get("role") == "system")]
    dropped = 0
    while True:
        ids = render(tokenizer, system + history)
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
