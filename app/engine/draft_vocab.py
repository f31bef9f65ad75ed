"""The draft model's LM head over a shortlist of the vocabulary: the tokens replies are made of.

A small draft streams its LM head at every proposal, and with a large vocabulary that head is a large
share of its bytes (Qwen2.5-0.5B: 151,936 x 896, about a third). Most of those rows are tokens a reply
never uses, so the draft proposes only among a shortlist (FR-Spec's frequency-ranked draft vocabulary):
the tokenizer's first ids, which for byte-pair encodings are its earliest merges, the most frequent
pieces, plus its special tokens (the end of a message must stay proposable). The target still verifies
over the whole vocabulary, so outputs are exact as before: a token outside the shortlist is simply never
proposed, and that proposal's place ends the run like any other rejection. For a sampled row the draft's
distribution is over the shortlist, which rejection sampling accepts as any other proposal distribution.
"""

from __future__ import annotations

import torch

from app.kernels.linear import Linear
from app.kernels.quantize import BLOCK, QuantizedWeight


def shortlist_ids(vocab_size: int, size: int, special_ids: list[int]) -> list[int]:
    """The first ``size`` ids and the special ones, widened to whole blocks of 16 rows (the packed heads'
    unit: a block costs the same whether one of its rows or all of them are kept)."""
    blocks = set(range(-(-min(size, vocab_size) // BLOCK)))
    blocks.update(i // BLOCK for i in special_ids if 0 <= i < vocab_size)
    return [i for block in sorted(blocks) for i in range(block * BLOCK, min((block + 1) * BLOCK, vocab_size))]


class ShortlistHead:
    """Logits over the whole vocabulary, -inf outside the shortlist; only the shortlist's rows are streamed."""

    def __init__(self, head: Linear, ids: list[int]) -> None:
        """``ids``: whole blocks of rows (:func:`shortlist_ids`); ``head`` packed at 4/8 bits or a plain weight
        (:meth:`fits`)."""
        self.vocab_size = head.out_features
        device = head.weight.device if head.weight is not None else torch.device("cpu")
        self.ids = torch.tensor(ids, device=device)  # output column j of the shortlist is token ids[j]
        if head.quantized is not None:  # records hold 16 rows each: keep the shortlist's records
            whole = head.quantized
            blocks = sorted({i // BLOCK for i in ids})
            records = whole.records[torch.tensor(blocks)].contiguous()
            self.linear = Linear(QuantizedWeight(whole.bits, records, len(blocks) * BLOCK, whole.in_features))
        else:
            self.linear = Linear(head.weight[self.ids])

    @staticmethod
    def fits(head: Linear) -> bool:
        """Whether the head's rows can be picked: packed at 4/8 bits, or a plain weight (not prepacked for oneDNN
        or the 16-bit kernels)."""
        return head.quantized is not None or head.weight is not None

    @property
    def weight_bytes(self) -> int:
        return self.linear.weight_bytes

    @property
    def weight_format(self) -> str:
        return self.linear.weight_format

    @property
    def quantized(self) -> QuantizedWeight | None:
        return self.linear.quantized

    def __call__(self, x: torch.Tensor) -> torch.Tensor:
        scores = self.linear(x)[:, : len(self.ids)]  # a padded last block's extra columns dropped
        logits = scores.new_full((scores.shape[0], self.vocab_size), float("-inf"))
        logits[:, self.ids] = scores
        return logits
