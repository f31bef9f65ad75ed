"""Incremental detokenisation: text that is safe to show as soon as it exists.

Decoding token by token breaks multi-byte characters (a UTF-8 sequence spread over several
byte-level tokens decodes to U+FFFD until it is complete) and can differ from decoding the
whole sequence, so text is decoded over a short sliding window of tokens and only emitted
once it no longer ends in a replacement character. Stop strings are matched in the decoded
text; text that could still become a stop string is held back until it is decided.
"""

from __future__ import annotations

from dataclasses import dataclass

WINDOW_CONTEXT = 5  # prompt tokens decoded ahead of the reply so a leading space survives


@dataclass
class DetokenizerStep:
    text: str
    stopped: bool


class IncrementalDetokenizer:
    def __init__(self, tokenizer, prompt_ids: list[int], stop: tuple[str, ...] = ()) -> None:
        self.tokenizer = tokenizer
        self.ids = list(prompt_ids[-WINDOW_CONTEXT:])
        self.prefix_offset = 0
        self.read_offset = len(self.ids)
        self.stop = tuple(s for s in stop if s)
        self.text = ""  # decoded reply so far
        self.emitted = 0  # characters of ``text`` already handed out

    def _decode(self, ids: list[int]) -> str:
        return self.tokenizer.decode(ids, skip_special_tokens=True)

    def _advance(self) -> None:
        prefix = self._decode(self.ids[self.prefix_offset : self.read_offset])
        full = self._decode(self.ids[self.prefix_offset :])
        if len(full) > len(prefix) and not full.endswith("\ufffd"):
            self.text += full[len(prefix) :]
            self.prefix_offset = self.read_offset
            self.read_offset = len(self.ids)

    def push(self, token_id: int) -> DetokenizerStep:
        """Add one token; returns the newly safe text and whether a stop string ended the reply."""
        self.ids.append(token_id)
        self._advance()
        if self.stop:
            search_from = max(0, self.emitted - max(len(s) for s in self.stop))
            hits = [p for p in (self.text.find(s, search_from) for s in self.stop) if p >= 0]
            if hits:
                end = min(hits)
                self.text = self.text[:end]
                return DetokenizerStep(self._take(end), True)
        return DetokenizerStep(self._take(len(self.text) - self._held_back()), False)

    def flush(self) -> str:
        """Everything not yet emitted, at the end of the reply (incomplete bytes included)."""
        rest = self._decode(self.ids[self.prefix_offset :])
        done = self._decode(self.ids[self.prefix_offset : self.read_offset])
        self.text += rest[len(done) :]
        self.read_offset = self.prefix_offset = len(self.ids)
        return self._take(len(self.text))

    def _held_back(self) -> int:
        """Length of the longest tail of the text that is a proper prefix of a stop string."""
        best = 0
        for s in self.stop:
            for k in range(min(len(s) - 1, len(self.text)), best, -1):
                if self.text.endswith(s[:k]):
                    best = k
                    break
        return best

    def _take(self, end: int) -> str:
        end = max(end, self.emitted)
        piece = self.text[self.emitted : end]
        self.emitted = end
        return piece
