"""KV-cache memory: preallocated tensors under a byte budget, handed out in fixed-size blocks.

The block manager is plain Python (no torch) so scheduling logic is testable without a model.
Full blocks are content-addressed by a hash chain over all tokens up to their end, so a new
request whose tokens start exactly like a finished one (the next turn of a conversation, or
any conversation with the same system prompt) reuses those blocks instead of recomputing them.
Freed blocks keep their content until they are handed out again, least recently freed first:
that is the LRU prefix cache, evicted only under memory pressure.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field

import torch

from app.engine.sequence import Sequence


@dataclass(eq=False)
class Block:
    block_id: int
    ref_count: int = 0
    hash: int | None = None
    token_ids: tuple[int, ...] = field(default_factory=tuple)
    draft: bool = False  # the draft model's cache holds these tokens too (speculative decoding)


def chain_hash(parent: int | None, token_ids: tuple[int, ...]) -> int:
    return hash((parent, token_ids))


class BlockManager:
    """Allocates blocks to sequences, reuses cached prefixes, frees at once on finish/cancel."""

    def __init__(self, num_blocks: int, block_size: int) -> None:
        if num_blocks < 1:
            raise ValueError("the KV-cache budget holds no block: raise kv_cache_bytes")
        self.block_size = block_size
        self.blocks = [Block(i) for i in range(num_blocks)]
        self.free: OrderedDict[int, None] = OrderedDict((i, None) for i in range(num_blocks))
        self.by_hash: dict[int, int] = {}
        self.prefix_hit_tokens = 0
        self.prefix_query_tokens = 0

    # --- accounting ---
    @property
    def num_blocks(self) -> int:
        return len(self.blocks)

    @property
    def num_free(self) -> int:
        """Blocks that can be handed out now (cached-but-unused ones included: they are evictable)."""
        return len(self.free)

    @property
    def num_used(self) -> int:
        return self.num_blocks - len(self.free)

    @property
    def num_cached_free(self) -> int:
        return sum(1 for b in self.free if self.blocks[b].hash is not None)

    def blocks_for(self, num_tokens: int) -> int:
        return -(-num_tokens // self.block_size)

    # --- prefix cache ---
    def _match_prefix(self, seq: Sequence) -> list[int]:
        """Cached blocks that hold exactly the first tokens of ``seq``. The last token is left to compute, and so is
        a probed position not read yet (``Sequence.probe_position``): only a forward gives its logits."""
        token_ids = seq.token_ids
        hits: list[int] = []
        parent: int | None = None
        usable = len(token_ids) - 1 if seq.unread_probe is None else min(len(token_ids) - 1, seq.unread_probe)
        for start in range(0, usable - self.block_size + 1, self.block_size):
            chunk = tuple(token_ids[start : start + self.block_size])
            h = chain_hash(parent, chunk)
            block_id = self.by_hash.get(h)
            if block_id is None or self.blocks[block_id].token_ids != chunk:
                break
            hits.append(block_id)
            parent = h
        return hits

    def _take(self, block_id: int) -> None:
        block = self.blocks[block_id]
        if block.ref_count == 0:
            del self.free[block_id]
        block.ref_count += 1

    def _take_fresh(self) -> int:
        block_id, _ = self.free.popitem(last=False)
        block = self.blocks[block_id]
        if block.hash is not None and self.by_hash.get(block.hash) == block_id:
            del self.by_hash[block.hash]
        block.hash = None
        block.token_ids = ()
        block.draft = False
        block.ref_count = 1
        return block_id

    # --- allocation ---
    def cached_prefix_len(self, seq: Sequence) -> int:
        """Tokens of a not yet admitted sequence that the prefix cache already holds."""
        return len(self._match_prefix(seq)) * self.block_size

    def blocks_needed(self, seq: Sequence, num_new_tokens: int) -> int:
        """Free-pool blocks that ``num_new_tokens`` more tokens would consume (for a sequence not yet
        admitted: the tokens after its cached prefix, plus cached blocks it takes back from the pool)."""
        if not seq.block_table:
            hits = self._match_prefix(seq)
            reclaimed = sum(1 for b in hits if self.blocks[b].ref_count == 0)
            fresh = self.blocks_for(len(hits) * self.block_size + num_new_tokens) - len(hits)
            return fresh + reclaimed
        return max(0, self.blocks_for(seq.num_computed + num_new_tokens) - len(seq.block_table))

    def admit(self, seq: Sequence) -> None:
        """First allocation: adopt cached prefix blocks, so only the rest needs a forward."""
        assert not seq.block_table
        hits = self._match_prefix(seq)
        for block_id in hits:
            self._take(block_id)
        seq.block_table = hits
        seq.num_computed = len(hits) * self.block_size
        seq.num_prefix_hit = seq.num_computed
        drafted = next((i for i, b in enumerate(hits) if not self.blocks[b].draft), len(hits))
        seq.draft_computed = drafted * self.block_size
        self.prefix_hit_tokens += seq.num_computed
        self.prefix_query_tokens += len(seq)

    def grow(self, seq: Sequence, num_new_tokens: int) -> None:
        """Make room for the next ``num_new_tokens`` tokens of ``seq`` (caller checked the count)."""
        need = self.blocks_for(seq.num_computed + num_new_tokens) - len(seq.block_table)
        for _ in range(need):
            seq.block_table.append(self._take_fresh())

    def commit(self, seq: Sequence) -> None:
        """Publish blocks that became full (their KV is final) to the prefix cache, and mark those
        the draft model has computed too, so a request that reuses them needs no draft catch-up."""
        full = min(seq.num_computed, len(seq.token_ids)) // self.block_size  # a verified run past its end: computed, not kept
        drafted = seq.draft_computed // self.block_size
        parent: int | None = None
        for i in range(full):
            block = self.blocks[seq.block_table[i]]
            block.draft |= i < drafted
            if block.hash is None:
                chunk = tuple(seq.token_ids[i * self.block_size : (i + 1) * self.block_size])
                block.hash = chain_hash(parent, chunk)
                block.token_ids = chunk
                self.by_hash.setdefault(block.hash, block.block_id)
            parent = block.hash

    def release(self, seq: Sequence) -> None:
        """Free a sequence's blocks now; tail blocks go first in the eviction order."""
        for block_id in reversed(seq.block_table):
            block = self.blocks[block_id]
            block.ref_count -= 1
            if block.ref_count == 0:
                if block.hash is None:
                    self.free[block_id] = None
                    self.free.move_to_end(block_id, last=False)
                else:
                    self.free[block_id] = None
        seq.block_table = []
        seq.num_computed = 0
        seq.draft_computed = 0


@dataclass(frozen=True)
class KVLayout:
    """Shape facts of a model's KV cache."""

    num_layers: int
    num_kv_heads: int
    head_dim: int
    dtype: torch.dtype

    @property
    def bytes_per_token(self) -> int:
        elem = torch.empty((), dtype=self.dtype).element_size()
        return self.num_layers * 2 * self.num_kv_heads * self.head_dim * elem


class KVCache:
    """The preallocated key/value tensor: ``[layers, slots, 2 (key, value), kv_heads, head_dim]``.

    Slot ``block_id * block_size + offset`` holds one token of one block; a token's key and value
    sit side by side, so one copy writes both and one gather reads both.
    """

    def __init__(self, layout: KVLayout, budget_bytes: int, block_size: int, device: torch.device) -> None:
        self.layout = layout
        self.block_size = block_size
        self.num_blocks = budget_bytes // (layout.bytes_per_token * block_size)
        slots = max(self.num_blocks, 1) * block_size
        self.tensor = torch.zeros(
            (layout.num_layers, slots, 2, layout.num_kv_heads, layout.head_dim), dtype=layout.dtype, device=device
        )

    @property
    def nbytes(self) -> int:
        return self.tensor.numel() * self.tensor.element_size()

    def layer(self, index: int) -> torch.Tensor:
        return self.tensor[index]
