"""Chat messages to prompt tokens, within the context limit.

A conversation can run forever: when its rendered prompt would leave no room for the reply,
the oldest turns are dropped (a turn is a user message and the replies that follow it) while
the system prompt stays, and the caller is told how many turns went.

:class:`PromptBuilder` does this without re-rendering or re-tokenising the conversation: where the
chat template renders each message on its own (a piece that starts with a special token, as ChatML
does), each message's piece is tokenised once and its ids cached by content, and turns are dropped by
adding up token counts. The one full render left per prompt is text only and checks that the pieces
add up to exactly what the template renders; where they do not, :func:`build_prompt` renders and
tokenises the conversation again for each dropped turn.
"""

from __future__ import annotations

import hashlib
import json
from array import array
from collections import OrderedDict
from dataclasses import dataclass

from jinja2 import TemplateError

PROBE = [{"role": "system", "content": "A probe of the template."}, {"role": "user", "content": "Hi there, how are you?"},
         {"role": "assistant", "content": " Fine,\nthanks! "}, {"role": "user", "content": "¿Y tú? 42"}]


class PromptTooLongError(ValueError):
    """Even the system prompt plus the newest message does not fit the context."""


@dataclass
class RenderedPrompt:
    token_ids: list[int]
    dropped_turns: int


def continues_final_message(messages: list[dict]) -> bool:
    """A conversation whose final message is marked ``"prefix": True`` asks for that message to be continued: an
    assistant's (the reply starts with its text, e.g. the opening of a call the client requires) or a user's (what
    the model expects after the user's words so far: the end-of-turn score). Without the mark, a final assistant
    message asks for a new reply."""
    return bool(messages) and messages[-1].get("prefix") is True


def texts_of(messages: list[dict], role: str) -> list[str]:
    """The text of each of ``messages`` of ``role`` that has text (not a call's), oldest first."""
    return [m["content"] for m in messages if m.get("role") == role and isinstance(m.get("content"), str)]


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
    continued = continues_final_message(messages)
    ids = tokenizer.apply_chat_template([_template_message(m) for m in messages], tools=tools or None,
                                        add_generation_prompt=not continued, continue_final_message=continued,
                                        tokenize=True, return_dict=False)  # fmt: skip
    if isinstance(ids, dict) or hasattr(ids, "keys"):
        ids = ids["input_ids"]
    return list(ids)


def render_text(tokenizer, messages: list[dict], tools: list[dict] | None, generation: bool = False) -> str:
    """:func:`render`'s text, ending in the generation prompt or not (a final message to continue: open)."""
    return tokenizer.apply_chat_template([_template_message(m) for m in messages], tools=tools or None,
                                         add_generation_prompt=generation,
                                         continue_final_message=continues_final_message(messages), tokenize=False)


def split_prompt(messages: list[dict], default_system: str | None) -> tuple[list[dict], list[dict], list[dict]]:
    """(system, history, continuation): the conversation's own system message, else ``default_system`` (or none);
    the messages turns are dropped from; a final message to continue, which always stays."""
    if not messages:
        raise ValueError("messages is empty")
    continuation = messages[-1:] if continues_final_message(messages) else []
    messages = messages[: len(messages) - len(continuation)]
    if messages and messages[0].get("role") == "system":
        return messages[:1], messages[1:], continuation
    return ([{"role": "system", "content": default_system}] if default_system else []), list(messages), continuation


def turn_starts(history: list[dict]) -> list[int]:
    """Where the kept history starts after dropping 0, 1, 2, ... turns: each drop removes the oldest message and every
    non-user message up to the next user message; the newest message always stays."""
    starts = [0]
    while len(history) - starts[-1] > 1:
        start = starts[-1] + 1
        while len(history) - start > 1 and history[start].get("role") != "user":
            start += 1
        starts.append(start)
    return starts


def _too_long(needed: int, max_prompt_tokens: int) -> PromptTooLongError:
    return PromptTooLongError(
        f"the prompt needs {needed} tokens but at most {max_prompt_tokens} fit (max_seq_len minus the reply)")


def build_prompt(tokenizer, messages: list[dict], *, default_system: str | None, max_prompt_tokens: int,
                 tools: list[dict] | None = None) -> RenderedPrompt:  # fmt: skip
    """Render ``messages`` (adding ``default_system`` when they have no system message), dropping the oldest turns
    until the prompt fits ``max_prompt_tokens``: a full render and tokenisation for each try."""
    system, history, continuation = split_prompt(messages, default_system)
    for dropped, start in enumerate(turn_starts(history)):
        ids = render(tokenizer, system + history[start:] + continuation, tools)
        if len(ids) <= max_prompt_tokens:
            return RenderedPrompt(ids, dropped)
    raise _too_long(len(ids), max_prompt_tokens)


@dataclass(frozen=True)
class _Piece:
    """A stretch of the rendered prompt and its token ids."""

    text: str
    ids: array


class PromptBuilder:
    """:func:`build_prompt`'s result from message pieces tokenised once each, kept in a cache bounded by tokens.

    Not thread-safe: one thread builds all of an engine's prompts.
    """

    def __init__(self, tokenizer, max_cached_tokens: int = 1 << 20) -> None:
        self.tokenizer = tokenizer
        self.max_cached_tokens = max_cached_tokens
        self._cache: OrderedDict[bytes, _Piece] = OrderedDict()
        self._cached_tokens = 0
        # a piece must start with a special token that does not swallow the whitespace before it: the text on
        # either side of it is then tokenised apart anyway, so pieces tokenised alone give the same ids
        self._starts = tuple(token.content for token in tokenizer.added_tokens_decoder.values() if token.special
                             and not token.lstrip)
        self.pieces_add_up = self._starts != () and self._fit_by_pieces(PROBE[:1], PROBE[1:], [], None, 1 << 30) == \
            RenderedPrompt(render(tokenizer, PROBE), 0)

    def build(self, messages: list[dict], *, default_system: str | None, max_prompt_tokens: int,
              tools: list[dict] | None = None) -> RenderedPrompt:  # fmt: skip
        system, history, continuation = split_prompt(messages, default_system)
        if system and self.pieces_add_up:
            built = self._fit_by_pieces(system, history, continuation, tools, max_prompt_tokens)
            if built is not None:
                return built
        return build_prompt(self.tokenizer, messages, default_system=default_system, max_prompt_tokens=max_prompt_tokens,
                            tools=tools)

    def _fit_by_pieces(self, system: list[dict], history: list[dict], continuation: list[dict],
                       tools: list[dict] | None, max_prompt_tokens: int) -> RenderedPrompt | None:  # fmt: skip
        """The prompt from cached pieces, dropping turns by token count; None where the pieces do not add up to the
        template's render (the caller renders instead). It ends in the generation prompt, or in ``continuation``'s
        open message."""
        head = self._piece(("system", system, tools), lambda: render_text(self.tokenizer, system, tools))
        if head is None:
            return None
        if continuation:
            tail = self._piece(("continuation", system, tools, continuation),
                               lambda: render_text(self.tokenizer, system + continuation, tools).removeprefix(head.text))
        else:
            tail = self._piece(("generation", system, tools),
                               lambda: render_text(self.tokenizer, system, tools, True).removeprefix(head.text))
        if tail is None:
            return None
        pieces: list[_Piece] = []
        total, start, fits = len(head.ids) + len(tail.ids), len(history), None
        starts = turn_starts(history)
        for dropped in reversed(range(len(starts))):  # newest first: only the kept messages and one more are tokenised
            for message in reversed(history[starts[dropped] : start]):
                piece = self._piece(("message", message), lambda m=message: render_text(self.tokenizer, system + [m], tools)
                                    .removeprefix(head.text))
                if piece is None:
                    return None
                pieces.append(piece)
                total += len(piece.ids)
            start = starts[dropped]
            if total > max_prompt_tokens:
                break
            fits = (dropped, len(pieces))
        if fits is None:
            raise _too_long(total, max_prompt_tokens)
        dropped, count = fits
        kept = pieces[:count][::-1]
        expected = head.text + "".join(p.text for p in kept) + tail.text
        if render_text(self.tokenizer, system + history[starts[dropped] :] + continuation, tools, not continuation) != expected:
            return None
        ids = array("l", head.ids)
        for piece in kept:
            ids.extend(piece.ids)
        ids.extend(tail.ids)
        return RenderedPrompt(ids.tolist(), dropped)

    def _piece(self, key: tuple[str, object], text) -> _Piece | None:
        """The cached piece for ``key``, else ``text()`` tokenised (None when it cannot be tokenised apart)."""
        digest = hashlib.blake2b(json.dumps(key, sort_keys=True, default=str).encode(), digest_size=16).digest()
        piece = self._cache.get(digest)
        if piece is not None:
            self._cache.move_to_end(digest)
            return piece
        try:
            rendered = text()
        except TemplateError:  # e.g. a template that wants alternating roles from the first message on
            return None
        if not rendered.startswith(self._starts):
            return None
        piece = _Piece(rendered, array("l", self.tokenizer.encode(rendered, add_special_tokens=False)))
        self._cache[digest] = piece
        self._cached_tokens += len(piece.ids)
        while self._cached_tokens > self.max_cached_tokens and len(self._cache) > 1:
            _, old = self._cache.popitem(last=False)
            self._cached_tokens -= len(old.ids)
        return piece
