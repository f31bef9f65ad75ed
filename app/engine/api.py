"""The backend-neutral request API: what the rest of the server codes against.

A local engine and a remote OpenAI-compatible server both implement :class:`LLMBackend`,
so the web layer never knows which one it talks to.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from enum import IntEnum
from typing import Literal, Protocol, runtime_checkable


class Priority(IntEnum):
    """Scheduling class; a lower value is served first (with aging, so none starves)."""

    VOICE = 0
    TEXT = 1
    BACKGROUND = 2


@dataclass
class SamplingParams:
    """How one reply is sampled; temperature 0 means greedy."""

    temperature: float = 0.0
    top_k: int = 0
    top_p: float = 1.0
    repetition_penalty: float = 1.0
    # the most times the reply may say one phrase of 4 words (0: no limit; phrase_limit.py); none for a request with
    # tools, whose calls repeat their phrases
    phrase_repeat_limit: int = 0
    max_tokens: int = 128
    # ends the request at its first token: a prompt sent ahead into the prefix cache for a reply to come, which
    # ``max_tokens`` still sizes (the prompt leaves that reply's room, so the two keep the same turns)
    prompt_only: bool = False
    stop: tuple[str, ...] = ()
    seed: int | None = None
    ignore_eos: bool = False
    # token ids whose probabilities (softmax of the model's own logits, before any penalty or temperature) come back
    # in the first token's Delta as ``token_probs``, read where ``token_probs_at`` says: "next", the first sampled
    # position (with ``max_tokens=1``, a prefill-only question such as "does the user's message end here?",
    # ``app/vad/end_of_turn.py``); "user_words_end", after the words of the final message, a user's, before its
    # trailing punctuation: the same question asked by a reply's own prefill, at no extra cost (None where the prompt
    # has no such position, or a speculative step prefilled it)
    token_probs: tuple[int, ...] = ()
    token_probs_at: Literal["next", "user_words_end"] = "next"
    # a reply that may call a tool or answer in words: where the tokens that open a call hold less than this share of
    # the model's own probability at the reply's first token, none of them is drawn there (0: off)
    call_floor: float = 0.0


@dataclass
class Delta:
    """One streamed piece of a reply: new token ids and the text that is safe to show."""

    request_id: str
    token_ids: list[int]
    text: str
    finished: bool
    finish_reason: str | None = None
    dropped_turns: int = 0
    error: str | None = None
    token_probs: dict[int, float] | None = None  # the first token's delta: the answer to ``SamplingParams.token_probs``
    prompt_tokens: int | None = None  # on the first token's and the final delta: the prompt's length (after dropped
    # turns), where known (a reply a guard ends before its final delta still reports it)
    below_call_floor: bool = False  # on the first token's delta: no call was drawn there (``SamplingParams.call_floor``)


@runtime_checkable
class LLMBackend(Protocol):
    """What every LLM backend offers: start/stop, streamed generation, cancel, stats."""

    supports_tools: bool  # whether ``generate`` takes ``tools`` (the model has a tool format)
    floors_calls: bool  # whether ``generate`` applies ``SamplingParams.call_floor`` (``Delta.below_call_floor``)

    async def start(self) -> None: ...

    async def stop(self) -> None: ...

    def generate(
        self,
        *,
        messages: list[dict] | None = None,
        prompt_token_ids: list[int] | None = None,
        params: SamplingParams,
        priority: Priority,
        session_id: str | None = None,
        request_id: str | None = None,
        tools: list[dict] | None = None,
    ) -> AsyncIterator[Delta]:
        """Stream a reply. ``messages`` are in the chat-completions shape (assistant ``tool_calls``, ``tool``
        results); one ending in an assistant message marked ``"prefix": True`` is continued from that message's
        text. ``tools`` (chat-completions shape) are declared to the model, whose calls stream as text in its own
        format (``app/engine/tool_calls.py`` reads them)."""
        ...

    def cancel(self, request_id: str) -> None:
        """Stop a request; its KV cache is freed at once."""

    def stats(self) -> dict:
        """A flat JSON-able dict for the dashboard."""


async def next_token_probs(backend: LLMBackend, messages: list[dict], token_ids: tuple[int, ...], *,
                           tools: list[dict] | None, priority: Priority, session_id: str | None,
                           request_id: str) -> Delta | None:  # fmt: skip
    """Ask ``backend`` a one-token question: the probabilities of ``token_ids`` as the token after ``messages``
    (``Delta.token_probs`` of the answer; None there, with ``error`` set, where the backend cannot tell). None when no
    answer came."""
    params = SamplingParams(max_tokens=1, token_probs=token_ids)
    last = None
    async for delta in backend.generate(messages=messages, tools=tools, params=params, priority=priority,
                                        session_id=session_id, request_id=request_id):
        last = delta
    return last
