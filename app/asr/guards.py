"""Guards against Whisper's hallucinations, as the reference decoders have them.

- A token budget per utterance, proportional to its length (no one says 12 tokens a second), and a
  stop when the last few tokens repeat in a row: a decoder that loops ("left left left ...") is cut
  off at once instead of running to the budget (and holding up its whole batch).
- A quality check on the finished text, openai-whisper's: a compression ratio above 2.4 (repetitive
  text) or an average log-probability under -1 (an unsure decode) fails, and so does a decode one of
  the stops above cut off, or one that ends on a repeated word ("Front left, left."), the trimmed
  encoder's typical slip. An utterance that fails is decoded again the way offline Whisper does it.
- No text where Whisper itself says there is no speech (``no_speech_prob``); where the trimmed
  encoder is unsure of it, the full window decides.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

MAX_TOKENS_PER_S = 12  # generous: fast speech is ~5 text tokens a second, punctuation included
MIN_TOKEN_BUDGET = 16  # a one-word clip still gets room for a word, punctuation and a false start
REPEAT_RUN = 4  # an n-gram of tokens this many times in a row ends the decode ...
REPEAT_MAX_NGRAM = 6  # ... for n up to this many tokens
COMPRESSION_RATIO_LIMIT = 2.4  # openai-whisper's thresholds
LOGPROB_FLOOR = -1.0
# Above this, the text is dropped outright: openai-whisper also requires a poor decode (avg logprob
# < -1), but its confident "you" on silence or noise (no-speech 0.85-0.95, logprob -0.4 to -0.6)
# would then reach the LLM. Over the full window recorded one-word prompts measured under 0.3.
NO_SPEECH_ALONE = 0.8
# openai-whisper's rule: no-speech above this and an unsure decode is silence.
NO_SPEECH_WITH_POOR_DECODE = 0.6


def token_budget(samples: int, sample_rate: int) -> int:
    """Most text tokens an utterance of ``samples`` may decode to."""
    return int(MIN_TOKEN_BUDGET + MAX_TOKENS_PER_S * samples / sample_rate)


def repeats_in_a_row(tokens: list[int], run: int = REPEAT_RUN, max_ngram: int = REPEAT_MAX_NGRAM) -> bool:
    """The last n tokens (n <= ``max_ngram``) come ``run`` times in a row at the end of ``tokens``."""
    for n in range(1, max_ngram + 1):
        if len(tokens) < n * run:
            break
        tail = tokens[-n:]
        if all(tokens[-(k + 1) * n : len(tokens) - k * n] == tail for k in range(1, run)):
            return True
    return False


def ends_on_a_repeated_word(text: str) -> bool:
    """The text's last word is said twice in a row ("Front left, left.", "Side, left, left")."""
    words = ["".join(ch for ch in word.lower() if ch.isalnum()) for word in text.split()]
    words = [word for word in words if word]
    return len(words) >= 2 and words[-1] == words[-2]


class RunawayStop:
    """A whisper ``LogitFilter`` that ends a row (forces end-of-text) past its token budget or in a loop.

    ``budgets`` has one entry per decoded row; ``stopped`` collects the rows it ended.
    """

    def __init__(self, sample_begin: int, end_of_text: int, budgets: list[int]) -> None:
        self.sample_begin = sample_begin
        self.end_of_text = end_of_text
        self.budgets = budgets
        self.stopped: set[int] = set()

    def apply(self, logits: torch.Tensor, tokens: torch.Tensor) -> None:
        generated = tokens.shape[1] - self.sample_begin
        if generated == 0:
            return
        for row, sampled in enumerate(tokens[:, self.sample_begin :].tolist()):
            if sampled[-1] == self.end_of_text:
                continue
            if generated >= self.budgets[row] or repeats_in_a_row(sampled):
                self.stopped.add(row)
                logits[row] = -float("inf")
                logits[row, self.end_of_text] = 0.0


@dataclass
class Verdict:
    """What the guards make of one decode."""

    silent: bool  # no speech: the text is dropped
    failed: bool  # a hallucination is likely: decode again the reference way

    @classmethod
    def of(cls, text: str, avg_logprob: float, no_speech_prob: float, compression_ratio: float,
           stopped: bool, *, trimmed: bool) -> Verdict:
        """A decode that loops is decoded again whatever its no-speech probability; otherwise a likely no-speech
        is silence and an unsure decode is decoded again. ``trimmed``: from the trimmed encoder, whose slips are a
        repeated last word and a no-speech probability between the two thresholds (speech and room tone
        both reach 0.6-0.8 there; over the full window they measured under 0.3 and over 0.85)."""
        looped = stopped or compression_ratio > COMPRESSION_RATIO_LIMIT or (trimmed and ends_on_a_repeated_word(text))
        poor = avg_logprob < LOGPROB_FLOOR
        if not looped and (no_speech_prob > NO_SPEECH_ALONE or (no_speech_prob > NO_SPEECH_WITH_POOR_DECODE and poor)):
            return cls(silent=True, failed=False)
        return cls(silent=False, failed=looped or poor or (trimmed and no_speech_prob > NO_SPEECH_WITH_POOR_DECODE))
