"""When a reply should end before the engine's token limit, and which of its clauses are fit to speak."""

from __future__ import annotations

from app.engine.phrase_limit import repeats_a_phrase, spoken_words


class ReplyGuard:
    """When a reply should end before the engine's token limit: a loop (one 4-word sequence said a
    third time: small models can repeat a phrase to the limit) ends it at once, and a spoken reply past
    three quarters of its token budget ends at the next sentence end, so speech never stops mid-sentence.
    The local engine keeps a reply off the loop in the first place (``phrase_repeat_limit``); the guard
    ends those it does not (a remote engine's, one that may call tools).
    """

    def __init__(self, max_tokens: int, spoken: bool) -> None:
        self.sentence_budget = max_tokens * 3 // 4 if spoken else None
        self.reason: str | None = None

    def check(self, text: str, tokens: int) -> bool:
        """True when the reply ``text`` (``tokens`` long so far) should end now; ``reason`` says why."""
        if repeats_a_phrase(spoken_words(text)):
            self.reason = "loop"
        elif self.sentence_budget is not None and tokens >= self.sentence_budget and text.rstrip().endswith((".", "!", "?")):
            self.reason = "sentence"
        return self.reason is not None


def speakable_end(clauses: list[str], cut: bool) -> list[str]:
    """The last clauses of a reply, less a trailing unfinished sentence where the reply was ``cut`` short, by the token
    limit or the loop guard (text shows it; speech would stop mid-word: "The waves come and go, A vast and")."""
    if cut and clauses and not clauses[-1].rstrip(" \"')").endswith((".", "!", "?")):
        return clauses[:-1]
    return clauses
