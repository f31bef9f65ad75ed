"""Cut an LLM token stream into speakable chunks at sentence and clause ends.

Synthesis of the first chunk starts the moment it is cut, so the first cut comes as early as is natural:
at the first clause end, or after a few words when no punctuation arrives. Later chunks are longer
(whole sentences, or long clauses) for better prosody; they are synthesised while earlier audio plays.
A boundary is a punctuation mark followed by whitespace, so "3.5", "1,000", "3:30", "example.com" and
"..." never split; abbreviations ("Dr.", "e.g.", "U.S.") and list markers ("1.") are not sentence ends;
nothing is cut inside a code block.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

_SENTENCE_END = ".!?"
_CLAUSE_END = ",;:…—–"
_CLOSERS = "\"')]}*_”’»"
_OPENERS = "\"'([{*_“‘«"
# Never a sentence end, whatever follows: titles, dotted abbreviations, Latin shorthands.
_ABBREVIATIONS = {
    "dr", "mr", "mrs", "ms", "prof", "st", "mt", "sgt", "capt", "col", "gen", "lt", "rev", "hon", "vs", "cf",
    "e.g", "i.e", "approx", "fig", "dept", "est", "ca", "u.s", "u.k", "u.s.a", "e.u", "ph.d", "b.sc", "m.sc",
}  # fmt: skip
# A sentence end only when the next word starts with a capital: "at 5 p.m. tomorrow" vs "at 5 p.m. Then".
_SOFT_ABBREVIATIONS = {"etc", "a.m", "p.m", "inc", "ltd", "corp", "co", "jr", "sr"}
# Before a number these abbreviate: "No. 5", "vol. 2", "p. 7".
_NUMBER_ABBREVIATIONS = {"no", "nos", "vol", "p", "pp", "ch", "sec", "art", "op"}
# A forced cut after these words would leave the chunk hanging mid-phrase.
_FUNCTION_WORDS = {
    "a", "an", "the", "to", "of", "in", "on", "at", "for", "with", "and", "or", "but", "by", "from", "as",
    "is", "are", "was", "were", "be", "my", "your", "our", "their", "his", "her", "its", "this", "that", "i",
    "you", "we", "they", "it", "he", "she", "not", "so", "if", "than", "then", "very", "about", "into",
    "will", "would", "can", "could", "should", "must", "may", "might", "have", "has", "had", "do", "does",
}  # fmt: skip
_WORD = re.compile(r"\S+")


class ClauseChunker:
    """Stateful: ``push`` each text delta of one reply, then ``flush`` once at its end."""

    def __init__(self, *, first_max_words: int = 7, min_clause_words: int = 6, max_words: int = 40) -> None:
        """``first_max_words``: the first chunk is cut after this many words if no clause ended sooner;
        ``min_clause_words``: later chunks end at a clause only when they are at least this long;
        ``max_words``: any chunk is cut by then, at the best word boundary."""
        self.first_max_words = first_max_words
        self.min_clause_words = min_clause_words
        self.max_words = max_words
        self._pending = ""
        self._emitted = 0

    def push(self, text: str) -> list[str]:
        """Add a text delta; returns the chunks that are now complete (often none)."""
        self._pending += text
        chunks = []
        while (cut := self._next_cut()) is not None:
            chunk, self._pending = self._pending[:cut].strip(), self._pending[cut:]
            if chunk:
                chunks.append(chunk)
                self._emitted += 1
        return chunks

    def flush(self) -> list[str]:
        """The rest of the reply (the stream has ended)."""
        rest, self._pending = self._pending.strip(), ""
        if not rest:
            return []
        self._emitted += 1
        return [rest]

    def _next_cut(self) -> int | None:
        first = self._emitted == 0
        text = self._pending
        for end, kind in _boundaries(text):
            words = _count_words(text[:end])
            if words and (kind == "sentence" or first or words >= self.min_clause_words):
                return end
        return self._forced_cut(text, self.first_max_words if first else self.max_words)

    @staticmethod
    def _forced_cut(text: str, limit: int) -> int | None:
        """After ``limit`` complete words, cut at the last word boundary that does not leave a phrase hanging."""
        if _inside_code(text):
            return None
        ends = [m.end() for m in _WORD.finditer(text) if m.end() < len(text)]  # words followed by whitespace
        if len(ends) < limit:
            return None
        words = [m[0] for m in _WORD.finditer(text)]
        for index in range(limit - 1, max(limit // 2, 1) - 2, -1):
            word = words[index].strip(_CLOSERS).lower()
            if word not in _FUNCTION_WORDS and word.rstrip(".") not in _ABBREVIATIONS and not word[-1:].isdigit():
                return ends[index]
        return ends[limit - 1]


def _count_words(text: str) -> int:
    return sum(1 for word in _WORD.finditer(text) if any(ch.isalnum() for ch in word[0]))


def _inside_code(text: str) -> bool:
    """True while a ``` block or an inline `code` span is open: nothing inside it may be cut."""
    return text.count("```") % 2 == 1 or text.replace("```", "").count("`") % 2 == 1


def _boundaries(text: str) -> Iterator[tuple[int, str]]:
    """Confirmed cut points (index after the mark and any closing quotes) with their kind."""
    for i, ch in enumerate(text):
        if ch == "\n":
            if text[:i].strip() and not _inside_code(text[:i]):
                yield i + 1, "sentence"
            continue
        if ch not in _SENTENCE_END and ch not in _CLAUSE_END:
            continue
        end = i + 1
        while end < len(text) and text[end] in _CLOSERS:
            end += 1
        if end >= len(text):
            return  # the next character decides; wait for it
        if not text[end].isspace() or _inside_code(text[:end]):
            continue
        if ch == ".":
            if i > 0 and text[i - 1] == ".":
                yield end, "clause"  # an ellipsis ends a phrase, not a sentence
                continue
            decided = _ends_sentence(text, i, end)
            if decided is None:
                return  # the next word decides; wait for it
            if not decided:
                continue
        yield end, "sentence" if ch in _SENTENCE_END else "clause"


def _ends_sentence(text: str, dot: int, end: int) -> bool | None:
    """Whether the period at ``dot`` ends a sentence (not an abbreviation, initial or list marker);
    None while that depends on the next word, which has not arrived yet."""
    line_start = text.rfind("\n", 0, dot) + 1
    token = text[line_start:dot].split()[-1] if text[line_start:dot].split() else ""
    token = token.lstrip(_OPENERS).lower()
    if not token:
        return False
    if token.isdigit() and not text[line_start:dot].strip(" \t").removesuffix(token).strip():
        return False  # "1. " opening a list item
    if token in _ABBREVIATIONS or (len(token) == 1 and token.isalpha() and token != "i"):
        return False
    following = text[end:].lstrip()
    if token in _NUMBER_ABBREVIATIONS or token in _SOFT_ABBREVIATIONS:
        if not following:
            return None
    if token in _NUMBER_ABBREVIATIONS:
        return not following[:1].isdigit()
    if token in _SOFT_ABBREVIATIONS:
        return following[:1].isupper()
    return True
