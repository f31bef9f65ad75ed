"""Cut an LLM token stream into speakable chunks at sentence and clause ends.

Synthesis of the first chunk starts the moment it is cut, so the first cut comes as early as is natural:
at the first clause end, or, when no punctuation comes, at the first word after the third that leaves no
phrase hanging, as soon as that word is complete (waiting to see the fifth word would cost the reply's first
audio one or two more decode steps, for the same cut in most sentences). Later chunks are longer
(whole sentences, or long clauses) for better prosody; they are synthesised while earlier audio plays.
A boundary is a punctuation mark followed by whitespace, so "3.5", "1,000", "3:30", "example.com" and
"..." never split, nor a comma between numbers ("29, 791 feet", as a model may write 29,791; "2, 4, 7");
abbreviations ("Dr.", "e.g.", "U.S.") and list markers ("1.") are not sentence ends; nothing is cut inside a code
block.
"""

from __future__ import annotations

import re

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
# A number hangs without what it counts ("Spiders have eight | legs").
_NUMBER_WORDS = {
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "twenty",
    "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety", "hundred", "thousand", "million", "billion",
}  # fmt: skip
_WORD = re.compile(r"\S+")


class ClauseChunker:
    """Stateful: ``push`` each text delta of one reply, then ``flush`` once at its end.

    Text is scanned once: ``_scanned`` marks how far the pending text holds no cut, with the code-span
    state at that point, so a long reply (or a long code block) costs linear time, not quadratic.
    """

    def __init__(self, *, first_min_words: int = 3, first_max_words: int = 5, min_clause_words: int = 6,
                 max_words: int = 40) -> None:
        """``first_min_words``..``first_max_words``: without a clause end sooner, the first chunk is cut after the
        first word in that range that leaves no phrase hanging, else after ``first_max_words`` words;
        ``min_clause_words``: later chunks end at a clause only when they are at least this long;
        ``max_words``: any later chunk is cut by then, at the best word boundary."""
        self.first_min_words = first_min_words
        self.first_max_words = first_max_words
        self.min_clause_words = min_clause_words
        self.max_words = max_words
        self._pending = ""
        self._emitted = 0
        self._reset_scan()

    def push(self, text: str) -> list[str]:
        """Add a text delta; returns the chunks that are now complete (often none)."""
        self._pending += text
        chunks = []
        while (cut := self._next_cut()) is not None:
            chunk, self._pending = self._pending[:cut].strip(), self._pending[cut:]
            self._reset_scan()  # cuts are never inside code
            if chunk:
                chunks.append(chunk)
                self._emitted += 1
        return chunks

    def flush(self) -> list[str]:
        """The rest of the reply (the stream has ended)."""
        rest, self._pending = self._pending.strip(), ""
        self._reset_scan()
        if not rest:
            return []
        self._emitted += 1
        return [rest]

    def _reset_scan(self) -> None:
        self._scanned = 0
        self._in_fence = False  # inside a ``` block at _scanned
        self._in_inline = False  # inside an inline `code` span at _scanned

    def _next_cut(self) -> int | None:
        first = self._emitted == 0
        text = self._pending
        i = self._scanned
        while i < len(text):
            if text[i] == "`":
                run = 1
                while i + run < len(text) and text[i + run] == "`":
                    run += 1
                if i + run == len(text) and run < 3:
                    break  # one or two backticks at the end may still become a fence
                if run >= 3:
                    self._in_fence = not self._in_fence
                elif not self._in_fence and run == 1:
                    self._in_inline = not self._in_inline
                i += run
                self._scanned = i
                continue
            if not (self._in_fence or self._in_inline):
                found = _boundary_at(text, i)
                if found is _WAIT:
                    break
                if found is not None:
                    end, kind = found
                    # a forced cut came before this mark: a streamed reply was cut there already, so a
                    # reply pushed whole is cut there too
                    if (forced := self._cut_without_mark(text, first, upto=i)) is not None:
                        return forced
                    words = _count_words(text[:end])
                    if words and (kind == "sentence" or first or words >= self.min_clause_words):
                        return end
            i += 1
            self._scanned = i
        if self._in_fence or self._in_inline:
            return None
        return self._cut_without_mark(text, first)

    def _cut_without_mark(self, text: str, first: bool, upto: int | None = None) -> int | None:
        """Where ``text`` (its words before ``upto``) is cut without a mark: the first chunk soon (see the module's
        docstring), a later one only once it is ``max_words`` long."""
        words = _complete_word_matches(text[:upto])
        if first:
            soon = _first_phrase_end(text, words[self.first_min_words - 1 : self.first_max_words])
            if soon == _NEXT_WORD:
                return None
            if soon is not None:
                return soon
        return _forced_cut(text, words, self.first_max_words if first else self.max_words)


_WAIT = ("wait", "")  # the next characters decide whether this is a boundary
_NEXT_WORD = -1  # the next word decides whether a cut here splits a name


def _boundary_at(text: str, i: int) -> tuple[int, str] | None:
    """The cut point (after the mark and any closing quotes) and its kind if ``text[i]`` ends a phrase."""
    ch = text[i]
    if ch == "\n":
        return (i + 1, "sentence") if text[:i].strip() else None
    if ch not in _SENTENCE_END and ch not in _CLAUSE_END:
        return None
    end = i + 1
    while end < len(text) and text[end] in _CLOSERS:
        end += 1
    if end >= len(text):
        return _WAIT
    if not text[end].isspace():
        return None
    if ch == "," and i > 0 and text[i - 1].isdigit():  # "29, 791 feet": a number written with a space in it
        if end + 1 >= len(text):
            return _WAIT
        if text[end] == " " and text[end + 1].isdigit():
            return None
    if ch == ".":
        if i > 0 and text[i - 1] == ".":
            return end, "clause"  # an ellipsis ends a phrase, not a sentence
        decided = _ends_sentence(text, i, end)
        if decided is None:
            return _WAIT
        if not decided:
            return None
    return end, "sentence" if ch in _SENTENCE_END else "clause"


def sentences(text: str) -> list[str]:
    """``text`` cut at its sentence ends by the chunks' rules: not after "Dr.", "St.", "e.g.", "3.5" or an ellipsis."""
    cuts = [0]
    for i, ch in enumerate(text):
        if ch in _SENTENCE_END and (boundary := _boundary_at(text, i)) not in (None, _WAIT) and boundary[1] == "sentence":
            cuts.append(boundary[0])
    return [piece for start, end in zip(cuts, [*cuts[1:], len(text)]) if (piece := text[start:end].strip())]


def _complete_word_matches(text: str) -> list[re.Match[str]]:
    return [m for m in _WORD.finditer(text) if m.end() < len(text)]  # words followed by whitespace


def _ends_phrase(word: str) -> bool:
    """A cut after ``word`` leaves no phrase hanging (not "the", "to", "Dr.", "3" before its unit)."""
    word = word.strip(_CLOSERS).lower()
    return (word not in _FUNCTION_WORDS and word not in _NUMBER_WORDS and word.rstrip(".") not in _ABBREVIATIONS
            and not word[-1:].isdigit())  # fmt: skip


def _splits_name(text: str, word: re.Match[str]) -> bool | None:
    """A cut after ``word`` would split a name ("the United | States", "New | York"): a capitalised word with
    another after it. A voice starts each chunk afresh, so a name cut in two is heard as two ("the United. Tates
    is ..."). None while the next word has not begun."""
    if not word[0].lstrip(_OPENERS)[:1].isupper():
        return False
    after = text[word.end() :]
    following = after.lstrip()
    if "\n" in after[: len(after) - len(following)]:
        return False  # a line break ends the chunk there anyway
    following = following.lstrip(_OPENERS)
    return following[0].isupper() if following else None


def _cut_after(text: str, word: re.Match[str]) -> bool | None:
    """Whether a cut after ``word`` leaves no phrase hanging and no name split; None while the next word decides."""
    if not _ends_phrase(word[0]):
        return False
    splits = _splits_name(text, word)
    return None if splits is None else not splits


def _first_phrase_end(text: str, candidates: list[re.Match[str]]) -> int | None:
    """The end of the first of ``candidates`` (complete words of ``text``) after which a cut leaves no phrase
    hanging and no name split; ``_NEXT_WORD`` while that depends on a word still to come."""
    for match in candidates:
        if not _inside_code(text[: match.end()]) and (cut := _cut_after(text, match)) is not False:
            return _NEXT_WORD if cut is None else match.end()
    return None


def _forced_cut(text: str, matches: list[re.Match[str]], limit: int) -> int | None:
    """After ``limit`` complete words (``matches``), cut at the last word boundary that leaves no phrase hanging
    and splits no name."""
    if len(matches) < limit:
        return None
    candidates = [m for m in matches[:limit] if not _inside_code(text[:m.end()])]
    for match in reversed(candidates[max(limit // 2, 1) - 1:]):
        if (cut := _cut_after(text, match)) is not False:
            return None if cut is None else match.end()  # None: the next word decides, as for the text pushed whole
    return candidates[-1].end() if candidates else None


def _count_words(text: str) -> int:
    return sum(1 for word in _WORD.finditer(text) if any(ch.isalnum() for ch in word[0]))


def _inside_code(text: str) -> bool:
    """True while a ``` block or an inline `code` span is open at the end of ``text``."""
    return text.count("```") % 2 == 1 or text.replace("```", "").count("`") % 2 == 1


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
