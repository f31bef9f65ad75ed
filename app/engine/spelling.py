"""The letters of a word the user asks how to spell, written into the question for the model.

A language model reads words as multi-letter tokens and never sees their letters, so asked how a word is
spelled it repeats the word or spells it wrongly ("recieve"); given the letters beside the question it reads
them back (docs/benchmarks.md, "Spelling"). ``with_spelling_hint`` adds them to the newest user message of a
reply's prompt; the conversation keeps the user's own words.
"""

from __future__ import annotations

import re
from itertools import islice

MAX_WORDS = 3  # "Los Angeles", "Saint Petersburg": a name, not a sentence
MAX_CHARS = 48  # the longest word in English dictionaries has 45 letters; a longer run is not a word to spell
_WORD = r"[^\W\d_]+(?:['’-][^\W\d_]+)*"
_NAME = rf"{_WORD}(?:\s+{_WORD}){{0,{MAX_WORDS - 1}}}"
_OPEN, _CLOSE = "\"'‘“«", "\"'’”»"
# "spell X" in any form of question or request ("how do you spell X", "can you spell X", "spell X", and a transcript's
# "have you spell X"), and "the spelling of X"; "is 'recieve' spelled right?" asks something else, and its letters
# would tell the model the word is spelled so
_ASKS = re.compile(r"(?:\bspell(?:\s+out)?|\bspelling\s+(?:of|for))\b(?:\s+(?:the|a)\s+(?:word|name)\b)?(?:\s*[:,])?\s*",
                   re.I)
MAX_ASKS = 4  # the "spell"s of a message looked at: a long one costs no more than a short one
_HOW_SPELLED = re.compile(rf"\bhow\s+(?:is|are|was)\s+[{_OPEN}]?\s*(?P<name>{_NAME})\s*[{_CLOSE}]?\s+spelled\b", re.I)
_QUOTED = re.compile(rf"[{_OPEN}]\s*({_NAME})\s*[{_CLOSE}]")
_NEXT_WORD = re.compile(rf"\s*({_WORD})")
# "in French": another language's spelling, which these letters would mislead
_OTHER_LANGUAGE = re.compile(r"\s*in\s+(?!english\b)[^\W\d_]", re.I)
_TAIL = {"for", "please", "again", "correctly", "properly", "right", "now", "backwards", "backward", "to", "me", "in"}
_NOT_A_WORD = {  # what follows "spell" where it is not a word to spell: pronouns, "a spell of rain", "spell checkers"
    "it", "that", "this", "these", "those", "them", "they", "he", "she", "him", "her", "his", "its", "my", "your", "our",
    "their", "me", "you", "we", "us", "i", "what", "which", "words", "names", "something", "anything", "everything",
    "things", "the", "a", "an", "out", "well", "of", "on", "over", "at", "with", "from", "into", "by", "is", "was", "are",
    "were", "and", "or", "but", "so", "check", "checks", "checker", "checkers", "checking", "bee", "book", "books",
    "spell", "spelled", "spelling",
}


def asked_word(text: str) -> str | None:
    """The word (or name of up to ``MAX_WORDS`` words) whose spelling ``text`` asks for, else None."""
    if how := _HOW_SPELLED.search(text):
        return _a_name(how["name"], how.end(), text)
    for asks in islice(_ASKS.finditer(text), MAX_ASKS):  # "I can't spell well: how do you spell X?" asks at its second
        if quoted := _QUOTED.match(text, asks.end()):
            name = _a_name(quoted[1], quoted.end(), text)
        else:
            name = _a_name(*_leading_words(text, asks.end()), text)
        if name is not None:
            return name
    return None


def _leading_words(text: str, pos: int) -> tuple[str, int]:
    """The words from ``pos`` on, up to a punctuation mark or a word of ``_TAIL`` (at most one past ``MAX_WORDS``),
    and where they end."""
    kept: list[str] = []
    while len(kept) <= MAX_WORDS and (word := _NEXT_WORD.match(text, pos)) and word[1].lower() not in _TAIL:
        kept.append(word[1])
        pos = word.end()
    return " ".join(kept), pos


def _a_name(name: str, end: int, text: str) -> str | None:
    """``name`` where it is one to spell (it ends at ``end`` in ``text``), else None."""
    words = name.split()
    if not words or len(words) > MAX_WORDS or len(name) > MAX_CHARS or any(w.lower() in _NOT_A_WORD for w in words):
        return None
    return None if _OTHER_LANGUAGE.match(text, end) else name


def letters(name: str) -> str:
    """'Los Angeles' -> 'L-O-S A-N-G-E-L-E-S'; 'mother-in-law' -> 'M-O-T-H-E-R hyphen I-N hyphen L-A-W'."""
    marks = {"-": "hyphen", "'": "apostrophe", "’": "apostrophe"}
    spelled = [marks.get(piece) or "-".join(piece.upper()) for piece in re.split(r"(['’-])|\s+", name) if piece]
    return " ".join(spelled)


_HINT = '\n\n(The word "{word}" is spelled {letters}. Answer by saying these letters.)'
_HINT_START, _HINT_END = _HINT.split("{word}")[0], _HINT.split("{letters}")[1]


def with_spelling_hint(messages: list[dict]) -> list[dict]:
    """``messages`` with the letters added to the last one when it is a user message asking how a word is spelled."""
    if not messages or messages[-1].get("role") != "user" or not isinstance(messages[-1].get("content"), str):
        return messages
    word = asked_word(messages[-1]["content"])
    if word is None:
        return messages
    hint = _HINT.format(word=word, letters=letters(word))
    return [*messages[:-1], {**messages[-1], "content": messages[-1]["content"] + hint}]


def user_words(content: str) -> str:
    """A user message's own words, without the letters ``with_spelling_hint`` added: where the end-of-turn score is
    read (after the words the user said, not after the server's note)."""
    start = content.rfind(_HINT_START)
    return content[:start] if start >= 0 and content.endswith(_HINT_END) else content
