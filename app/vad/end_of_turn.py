"""Semantic end of turn: how likely the user's message ends after the words so far, and the silence that follows.

LiveKit's turn detector's method on the shared engine: the words, normalised (lowercase, no punctuation), are the
last user message of the chat template, left open, after the conversation as the reply sees it (system prompt, tools,
earlier turns); the model's probability that the message ends right there is read from one prefill-only request at
voice priority (``SamplingParams.token_probs``, ``max_tokens=1``). The score's prompt and the reply's share all but
that last message, so the engine's prefix cache holds the conversation up to the last reply: a score prefills the
newest words, not the turns before them.

The end is the end-of-message token (``<|im_end|>`` in ChatML) or a sentence-final mark: the packaged instruct models
close a sentence with ``.``/``?``/``!`` before the end token, so on unpunctuated text the end token alone is near zero
after complete and unfinished sentences alike, while the two together separate them (docs/benchmarks.md).
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import re
import uuid
from collections import OrderedDict
from dataclasses import dataclass
from typing import Literal

from app.engine.api import LLMBackend, Priority, next_token_probs

log = logging.getLogger(__name__)

Eagerness = Literal["low", "medium", "high", "auto"]
SENTENCE_ENDS = (".", "?", "!")
CACHE_SIZE = 256
LIKELY_END = 0.05  # at or above: the shortest wait
UNLIKELY_END = 0.001  # at or below: the longest wait; between them the wait follows log(probability)


@dataclass(frozen=True)
class Waits:
    """The silence (ms) that ends a turn whose end is likely, and one whose end is unlikely."""

    shortest_ms: int
    longest_ms: int


WAITS: dict[str, Waits] = {
    "high": Waits(150, 600),
    "medium": Waits(200, 1000),
    "auto": Waits(200, 1000),
    "low": Waits(250, 1500),
}


def silence_ms(probability: float, eagerness: Eagerness) -> int:
    """The silence that ends the turn given the probability that the message ended."""
    waits = WAITS[eagerness]
    position = (math.log(max(probability, 1e-12)) - math.log(UNLIKELY_END)) / (math.log(LIKELY_END) - math.log(UNLIKELY_END))
    position = min(1.0, max(0.0, position))
    return round(waits.longest_ms - position * (waits.longest_ms - waits.shortest_ms))


def normalise(text: str) -> str:
    """Lowercase words without punctuation (apostrophes kept), as the words of a transcript come in speech."""
    return " ".join(re.sub(r"[^\w\s']", " ", text.lower()).split())


class EndOfTurnScorer:
    """Asks the engine how likely a message ends after some words; answers cached by conversation and words."""

    def __init__(self, backend: LLMBackend, tokenizer) -> None:
        self.backend = backend
        self.tokenizer = tokenizer
        end = tokenizer.convert_tokens_to_ids("<|im_end|>")
        if not isinstance(end, int) or end == tokenizer.unk_token_id:
            end = tokenizer.eos_token_id
        self.end_ids = (end, *(self._single_token(mark) for mark in SENTENCE_ENDS))
        self._cache: OrderedDict[bytes, float] = OrderedDict()

    def _single_token(self, text: str) -> int:
        ids = self.tokenizer.encode(text, add_special_tokens=False)
        if len(ids) != 1:
            raise ValueError(f"{text!r} is not one token in this tokenizer")
        return ids[0]

    @staticmethod
    def probability(token_probs: dict[int, float]) -> float:
        """The score from the end tokens' probabilities: the message ends, or a sentence in it does."""
        return sum(token_probs.values())

    @staticmethod
    def messages(conversation: list[dict], words: str) -> list[dict]:
        """The score's chat messages: ``conversation`` (as a reply to it would start), then ``words`` as the user's
        message, open (``"prefix"``: the template renders it without its end)."""
        return [*conversation, {"role": "user", "content": words, "prefix": True}]

    async def score(self, conversation: list[dict], text: str, *, tools: list[dict] | None = None,
                    session_id: str | None = None) -> float | None:
        """The probability that the user's message ends after ``text``, said after ``conversation`` (the chat messages
        a reply would get, system prompt first, with the same ``tools``); None when the engine cannot tell."""
        words = normalise(text)
        if not words:
            return None
        key = hashlib.blake2b(json.dumps([conversation, tools, words], default=str).encode(), digest_size=16).digest()
        if key in self._cache:
            self._cache.move_to_end(key)
            return self._cache[key]
        last = await next_token_probs(self.backend, self.messages(conversation, words), self.end_ids, tools=tools,
                                      priority=Priority.VOICE, session_id=session_id,
                                      request_id=f"eot-{uuid.uuid4().hex}")  # fmt: skip
        if last is None or last.token_probs is None:
            log.warning("end-of-turn score unavailable: %s", last.error if last is not None else "no answer")
            return None
        probability = self.probability(last.token_probs)
        self._cache[key] = probability
        while len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)
        return probability


def end_of_turn_scorer(backend: LLMBackend) -> EndOfTurnScorer | None:
    """A scorer on ``backend`` where it has a tokenizer to name the end tokens with (the local engine; a remote backend
    has none, and ``semantic_vad`` is then refused)."""
    tokenizer = getattr(backend, "tokenizer", None)
    if tokenizer is None:
        return None
    try:
        return EndOfTurnScorer(backend, tokenizer)
    except ValueError as why:
        log.warning("no semantic end of turn with this model: %s", why)
        return None
