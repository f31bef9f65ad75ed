"""A reply that says one phrase over and over: the rule that names it, and the tokens that would break it.

A phrase is ``LOOP_WORDS`` words in a row, words as a listener hears them (split at white space, lower case,
without the punctuation around them). The server's guard ends a reply that says one phrase ``LOOP_REPEATS`` times
(``app/web/reply_guard.py``) and ``bench quality`` counts those replies as loops. With
``SamplingParams.phrase_repeat_limit`` the engine goes further: the token that would say a phrase once more than the
limit is never chosen, so the reply takes another way instead of ending. Words, not token ids: a model steered off a
token run can spell the same word with other tokens ("Salvador" as " Salv" "ador"); it cannot write the same word.
A token writes at most one word (byte-level BPE splits text at white space before merging, and so does every chat
model the engine serves), and a word counts from its first letters on, as the guard reads a reply still streaming.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

LOOP_WORDS, LOOP_REPEATS = 4, 3
PUNCTUATION = ".,;:!?\"'()"


def spoken_word(word: str) -> str:
    return word.strip(PUNCTUATION).lower()


def spoken_words(text: str) -> list[str]:
    return [spoken_word(w) for w in text.split()]


def repeats_a_phrase(words: list[str], n: int = LOOP_WORDS, repeats: int = LOOP_REPEATS) -> bool:
    """Whether one ``n``-word sequence occurs ``repeats`` times or more (overlapping ones too): a reply in a loop."""
    grams = Counter(tuple(words[i : i + n]) for i in range(len(words) - n + 1))
    return bool(grams) and max(grams.values()) >= repeats


class TokenTexts:
    """Each token's text (special tokens none), to read the words of a reply and of its proposals in a step."""

    def __init__(self, pieces: list[str]) -> None:
        self.pieces = pieces

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
    could (most steps: the last words have not been followed by one word ``limit`` times yet)."""
    if limit <= 0:
        return None
    text = texts.text(reply)
    words = text.split()
    tail = words.pop() if words and not text[-1].isspace() else ""  # a word still being written
    head = [spoken_word(w) for w in words]
    said = head + [spoken_word(tail)] if tail else head
    lead = LOOP_WORDS - 1
    if len(said) < lead:
        return None
    counts = Counter(tuple(said[i : i + LOOP_WORDS]) for i in range(len(said) - lead))
    # the words before a new word, and before the word being written (which a token may still go on with)
    before_new = tuple(said[-lead:])
    before_tail = tuple(head[-lead:]) if tail and len(head) >= lead else None
    if not any(count >= limit and gram[:lead] in (before_new, before_tail) for gram, count in counts.items()):
        return None
    checked: dict[int, bool] = {}

    def banned(token: int) -> bool:
        if token not in checked:
            piece = texts.piece(token)
            if not piece.strip():
                checked[token] = False  # no new word: white space ends the one being written
            elif piece[0].isspace() or not tail:
                checked[token] = counts[before_new + (spoken_word(piece.split()[0]),)] + 1 > limit
            elif before_tail is None:
                checked[token] = False
            else:  # the token goes on with the word being written: its phrase replaces the one counted with it
                gram = before_tail + (spoken_word(tail + piece.split()[0]),)
                checked[token] = counts[gram] - (gram == before_tail + (said[-1],)) + 1 > limit
        return checked[token]

    return banned
