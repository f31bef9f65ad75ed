"""A reply that says one phrase over and over: the rule that names it, and the tokens that would break it.

A phrase is ``LOOP_WORDS`` words in a row, words as a listener hears them: lower case, split at white space and
punctuation ("I'm" is two, "re-er-yoo" three: a speech synthesiser reads them so). The server's guard ends a reply that says one
phrase ``LOOP_REPEATS`` times (``app/web/reply_guard.py``). With ``SamplingParams.phrase_repeat_limit`` the engine goes
further: a token that would make the reply say a phrase once more than the limit is never chosen, so the reply takes
another way instead of ending. Words, not token ids: a model steered off a run of tokens can spell the same word with
other tokens ("Salvador" as " Salv" "ador"); it cannot write the same words. A word counts from its first letters on,
as the guard reads a reply still streaming.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable

LOOP_WORDS, LOOP_REPEATS = 4, 3
_SPLIT = r"\s!-/:-@\[-`{-~\u00a1-\u00bf\u2010-\u2027"  # white space, ASCII and Latin-1 punctuation, dashes, quotes
_WORD = re.compile(f"[^{_SPLIT}]+")  # (letters and their combining marks stay together, as in Thai)
_LAST_WORD = re.compile(f"[^{_SPLIT}]+\\Z")  # a word the text ends in: one the next token may still go on with


def spoken_words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def repeats_a_phrase(words: list[str], n: int = LOOP_WORDS, repeats: int = LOOP_REPEATS) -> bool:
    """Whether one ``n``-word sequence occurs ``repeats`` times or more (overlapping ones too): a reply in a loop."""
    grams = Counter(_phrases(words, n))
    return bool(grams) and max(grams.values()) >= repeats


def _phrases(words: list[str], n: int = LOOP_WORDS) -> list[tuple[str, ...]]:
    return [tuple(words[i : i + n]) for i in range(len(words) - n + 1)]


class TokenTexts:
    """Each token's text (special tokens none), to read the words of a reply and of its proposals in a step."""

    def __init__(self, pieces: list[str]) -> None:
        self.pieces = pieces
        self.multi_word = frozenset(t for t, p in enumerate(pieces) if len(spoken_words(p)) > 1)  # a few, if any

    @classmethod
    def of(cls, tokenizer) -> TokenTexts:
        """From a fast tokenizer: each token decoded alone (a fraction of a second for 150k tokens)."""
        return cls(tokenizer.backend_tokenizer.decode_batch([[i] for i in range(len(tokenizer))], skip_special_tokens=True))

    def piece(self, token: int) -> str:
        return self.pieces[token] if 0 <= token < len(self.pieces) else ""

    def text(self, tokens: list[int]) -> str:
        return "".join(self.piece(t) for t in tokens)


def phrase_ban(texts: TokenTexts, reply: list[int], limit: int) -> Callable[[int], bool] | None:
    """Whether a token said next would make ``reply`` say one phrase more than ``limit`` times; None where no token
    could (most steps: no phrase has been said that often)."""
    if limit <= 0:
        return None
    text = texts.text(reply).lower()
    said = _WORD.findall(text)
    counts = Counter(_phrases(said))
    # a token of one word adds at most one phrase: only a phrase said ``limit`` times already can go over
    hot = any(count >= limit for count in counts.values())
    if not hot and not texts.multi_word:
        return None
    tail = match.group() if (match := _LAST_WORD.search(text)) else ""
    lead = (said[:-1] if tail else said)[-(LOOP_WORDS - 1) :]  # the words before those a token writes or goes on with
    checked: dict[int, bool] = {}

    def banned(token: int) -> bool:
        if not hot and token not in texts.multi_word:
            return False
        if token not in checked:
            # the text up to ``tail`` ends between words, so the token's words are those of ``tail`` and itself
            added = Counter(_phrases(lead + spoken_words(tail + texts.piece(token))))
            added.subtract(_phrases(lead + [tail]) if tail else [])
            checked[token] = any(counts[phrase] + more > limit for phrase, more in added.items() if more > 0)
        return checked[token]

    return banned
