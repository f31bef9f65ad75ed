"""A reply that says one phrase over and over: the rule that names it, and the tokens that would break it.

A phrase is ``LOOP_WORDS`` words in a row, words as a listener hears them: lower case, split at white space and
punctuation ("I'm" is two, "re-er-yoo" three: a speech synthesiser reads them so). The server's guard ends a reply that says one
phrase ``LOOP_REPEATS`` times (``app/web/reply_guard.py``). With ``SamplingParams.phrase_repeat_limit`` the engine goes
further: a token that would make the reply say a phrase once more than the limit is never chosen, and where that token
is the model's likeliest the reply ends instead (``app/engine/sampling.py``): steered on, a weak model rambles to its
token limit. Words, not token ids: a model steered off a run of tokens can spell the same word with
other tokens ("Salvador" as " Salv" "ador"); it cannot write the same words. A word counts from its first letters on,
as the guard reads a reply still streaming.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict

LOOP_WORDS, LOOP_REPEATS = 4, 3
_SPLIT = r"\s!-/:-@\[-`{-~\u00a1-\u00bf\u2010-\u2027"  # white space, ASCII and Latin-1 punctuation, dashes, quotes
_WORD = re.compile(f"[^{_SPLIT}]+")  # (letters and their combining marks stay together, as in Thai)
_LAST_WORD = re.compile(f"[^{_SPLIT}]+\\Z")  # a word the text ends in: one the next token may still go on with
_FIRST_WORD = re.compile(f"[^{_SPLIT}]")  # (matched at the start) a token's text that goes on with the word before it


def spoken_words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def repeats_a_phrase(words: list[str], n: int = LOOP_WORDS, repeats: int = LOOP_REPEATS) -> bool:
    """Whether one ``n``-word sequence occurs ``repeats`` times or more (overlapping ones too): a reply in a loop."""
    grams = Counter(_phrases(words, n))
    return bool(grams) and max(grams.values()) >= repeats


def _phrases(words: list[str], n: int = LOOP_WORDS) -> list[tuple[str, ...]]:
    return [tuple(words[i : i + n]) for i in range(len(words) - n + 1)]


class TokenTexts:
    """Each token's text (special tokens none), to read the words of a reply and of its proposals in a step, and the
    tokens by the word they write: those that start one, those that go on with the word before them."""

    def __init__(self, pieces: list[str]) -> None:
        self.pieces = pieces
        starting: dict[str, list[int]] = defaultdict(list)
        going_on: dict[str, list[int]] = defaultdict(list)
        multi_word: list[int] = []
        repeating: list[int] = []
        for token, piece in enumerate(pieces):
            words = spoken_words(piece)
            if len(words) == 1:
                (going_on if _FIRST_WORD.match(piece) else starting)[words[0]].append(token)
            elif words:
                (repeating if _periodic(words) else multi_word).append(token)
        self.starting, self.going_on = dict(starting), dict(going_on)
        # tokens of several words (a few, if any): one whose words do not repeat adds one phrase at most once, as a
        # token of one word does; one whose words repeat ("la-la") may add one phrase twice
        self.multi_word, self.repeating = tuple(multi_word), tuple(repeating)

    @classmethod
    def of(cls, tokenizer) -> TokenTexts:
        """From a fast tokenizer: each token decoded alone (a fraction of a second for 150k tokens)."""
        return cls(tokenizer.backend_tokenizer.decode_batch([[i] for i in range(len(tokenizer))], skip_special_tokens=True))

    def piece(self, token: int) -> str:
        return self.pieces[token] if 0 <= token < len(self.pieces) else ""

    def text(self, tokens: list[int]) -> str:
        return "".join(self.piece(t) for t in tokens)


def phrase_ban(texts: TokenTexts, reply: list[int], limit: int) -> frozenset[int]:
    """The tokens that, said next, would make ``reply`` say one phrase more than ``limit`` times (none in most steps:
    no phrase has been said that often)."""
    if limit <= 0:
        return frozenset()
    text = texts.text(reply).lower()
    said = _WORD.findall(text)
    counts = Counter(_phrases(said))
    tail = match.group() if (match := _LAST_WORD.search(text)) else ""  # the token may go on with it
    lead = (said[:-1] if tail else said)[-(LOOP_WORDS - 1) :]  # the words before those the token writes
    # a token of one word adds one phrase (and takes the one it goes on with away): only a phrase said ``limit`` times
    # already can go over, and only through the tokens that write its last word there
    at_limit = [phrase for phrase, count in counts.items() if count >= limit]
    suspects = set(texts.repeating) | (set(texts.multi_word) if at_limit else set())
    last_words = said[-(LOOP_WORDS - 1) :]
    for *before, word in at_limit:
        if before == last_words:  # a new word
            suspects.update(texts.starting.get(word, ()), () if tail else texts.going_on.get(word, ()))
        if tail and before == lead and word.startswith(tail) and word != tail:  # the word being written goes on
            suspects.update(texts.going_on.get(word[len(tail) :], ()))
    return frozenset(t for t in suspects if _goes_over(texts, counts, lead, tail, t, limit))


def _periodic(words: list[str]) -> bool:
    """Whether ``words`` repeat themselves with a period shorter than their number ("la la", "a b a")."""
    return any(words[i:] == words[: len(words) - i] for i in range(1, len(words)))


def _goes_over(texts: TokenTexts, counts: Counter, lead: list[str], tail: str, token: int, limit: int) -> bool:
    # the text before ``tail`` ends between words, so the token's words are those of ``tail`` and itself
    added = Counter(_phrases(lead + spoken_words(tail + texts.piece(token))))
    added.subtract(_phrases(lead + [tail]) if tail else [])
    return any(counts[phrase] + more > limit for phrase, more in added.items() if more > 0)
