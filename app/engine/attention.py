"""Attention over the paged KV cache for one packed step.

A step's new tokens are packed into one flat token dimension (decode rows first, then the
prefill chunks), so the linear layers stream their weights once for the whole batch and no
token is padding. Attention is the only per-sequence part: decode rows are gathered into one
batched single-query attention, each prefill chunk attends to its cached prefix plus itself.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn.functional as F

from app.engine.kv_cache import KVCache
from app.engine.scheduler import ScheduledBatch


@dataclass
class PrefillChunk:
    start: int  # offset in the packed token dimension
    length: int  # new tokens in this chunk
    context: int  # cached tokens before the chunk + length
    gather: torch.Tensor | None  # cache slots of all ``context`` tokens; None when there is no prefix
    mask: torch.Tensor | None  # [length, context] causal mask for a chunk with a prefix


@dataclass
class StepMetadata:
    """Everything the attention needs to know about a packed step."""

    slot_mapping: torch.Tensor  # [T] cache slot of each new token
    num_decode: int
    decode_gather: torch.Tensor | None  # [B * L] cache slots of the decode rows' contexts, padded
    decode_mask: torch.Tensor | None  # [B, 1, 1, L] True where a key is real
    decode_len: int
    prefills: list[PrefillChunk]


@dataclass
class StepInputs:
    input_ids: torch.Tensor  # [T]
    positions: torch.Tensor  # [T]
    logits_indices: torch.Tensor  # rows of the packed step whose next token is sampled
    meta: StepMetadata


def _slots(block_table: list[int], start: int, end: int, block_size: int) -> list[int]:
    return [block_table[p // block_size] * block_size + p % block_size for p in range(start, end)]


def prepare_step(batch: ScheduledBatch, block_size: int, device: torch.device) -> StepInputs:
    """Pack a scheduled batch into flat tensors (decode rows first, in the batch's order)."""
    ids: list[int] = []
    positions: list[int] = []
    slots: list[int] = []
    logits_rows: list[int] = []

    decode = batch.decode
    decode_len = max((len(s) for s in decode), default=0)
    gather_rows: list[list[int]] = []
    lengths: list[int] = []
    for seq in decode:
        pos = len(seq) - 1
        ids.append(seq.token_ids[pos])
        positions.append(pos)
        ctx = _slots(seq.block_table, 0, pos + 1, block_size)
        slots.append(ctx[-1])
        logits_rows.append(len(ids) - 1)
        lengths.append(pos + 1)
        gather_rows.append(ctx + [0] * (decode_len - len(ctx)))

    prefills: list[PrefillChunk] = []
    for seq, n in batch.prefill:
        start = seq.num_computed
        end = start + n
        offset = len(ids)
        ids.extend(seq.token_ids[start:end])
        positions.extend(range(start, end))
        slots.extend(_slots(seq.block_table, start, end, block_size))
        if end == len(seq):
            logits_rows.append(len(ids) - 1)
        if start == 0:
            prefills.append(PrefillChunk(offset, n, n, None, None))
        else:
            gather = torch.tensor(_slots(seq.block_table, 0, end, block_size), device=device)
            q_pos = torch.arange(start, end, device=device)[:, None]
            mask = torch.arange(end, device=device)[None, :] <= q_pos
            prefills.append(PrefillChunk(offset, n, end, gather, mask))

    decode_gather = decode_mask = None
    if decode:
        decode_gather = torch.tensor(gather_rows, device=device).view(-1)
        lens = torch.tensor(lengths, device=device)
        decode_mask = (torch.arange(decode_len, device=device)[None, :] < lens[:, None]).view(len(decode), 1, 1, -1)

    meta = StepMetadata(
        slot_mapping=torch.tensor(slots, device=device),
        num_decode=len(decode),
        decode_gather=decode_gather,
        decode_mask=decode_mask,
        decode_len=decode_len,
        prefills=prefills,
    )
    return StepInputs(
        input_ids=torch.tensor(ids, device=device),
        positions=torch.tensor(positions, device=device),
        logits_indices=torch.tensor(logits_rows, device=device, dtype=torch.long),
        meta=meta,
    )


def paged_attention(
    q: torch.Tensor,
    kv: torch.Tensor,
    layer: int,
    cache: KVCache,
    meta: StepMetadata,
    scale: float,
) -> torch.Tensor:
    """Write the step's keys/values into the cache and attend.

    q: [T, Hq, D]; kv: [T, 2, Hkv, D] (keys, values); returns [T, Hq, D].
    """
    kv_cache = cache.layer(layer)
    kv_cache.index_copy_(0, meta.slot_mapping, kv)
    num_tokens, num_heads, head_dim = q.shape
    num_kv = kv.shape[2]
    group = num_heads // num_kv
    out = torch.empty_like(q)

    b = meta.num_decode
    if b:
        # the `group` query heads sharing a KV head attend to the same keys with the same mask,
        # so they ride in the query-length dimension: no KV repeat, one batched call
        qd = q[:b].reshape(b, num_kv, group, head_dim)
        ctx = kv_cache.index_select(0, meta.decode_gather).view(b, meta.decode_len, 2, num_kv, head_dim)
        kd, vd = ctx[:, :, 0].transpose(1, 2), ctx[:, :, 1].transpose(1, 2)
        od = F.scaled_dot_product_attention(qd, kd, vd, attn_mask=meta.decode_mask, scale=scale)
        out[:b] = od.reshape(b, num_heads, head_dim)

    for chunk in meta.prefills:
        s, n = chunk.start, chunk.length
        qp = q[s : s + n].transpose(0, 1).unsqueeze(0)
        if chunk.gather is None:
            ctx, causal, mask = kv[s : s + n], True, None
        else:
            ctx, causal, mask = kv_cache.index_select(0, chunk.gather), False, chunk.mask
        kp = ctx[:, 0].transpose(0, 1).unsqueeze(0)
        vp = ctx[:, 1].transpose(0, 1).unsqueeze(0)
        op = F.scaled_dot_product_attention(qp, kp, vp, attn_mask=mask, is_causal=causal, scale=scale, enable_gqa=group > 1)
        out[s : s + n] = op.squeeze(0).transpose(0, 1)
    return out
