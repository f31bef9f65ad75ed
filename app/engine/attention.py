"""Attention over the paged KV cache for one packed step.

A step's new tokens are packed into one flat token dimension (decode rows first, then the
prefill chunks), so the linear layers stream their weights once for the whole batch and no
token is padding. Attention is the only per-sequence part: decode rows are gathered into one
batched single-query attention; prefill chunks (each attending to its cached prefix plus
itself) are grouped by length into buckets, one padded attention call per bucket.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn.functional as F

from app.kernels.cpu_kernels import CpuKernels
from app.engine.kv_cache import KVCache
from app.engine.scheduler import ScheduledBatch


@dataclass
class PrefillGroup:
    """Prefill chunks of similar size attended in one padded call (their length bucket).

    Chunk ``p`` has ``lengths[p]`` new tokens after ``starts[p]`` cached ones; queries are padded
    to ``q_len`` and contexts to ``ctx_len``. A padded query attends to key 0 only (its output is
    dropped), so no row of the softmax is empty.
    """

    packed_start: int  # the group's first row in the packed token dimension (its chunks are contiguous)
    num_tokens: int
    q_index: torch.Tensor  # [P * q_len] packed row of each padded query
    out_index: torch.Tensor  # [num_tokens] padded position of each real query, in packed order
    gather: torch.Tensor  # [P * ctx_len] cache slots of each chunk's whole context
    mask: torch.Tensor  # [P, 1, q_len, ctx_len]
    rows: int
    q_len: int
    ctx_len: int


@dataclass
class StepMetadata:
    """Everything the attention needs to know about a packed step."""

    slot_mapping: torch.Tensor  # [T] cache slot of each new token
    num_decode: int
    decode_gather: torch.Tensor | None  # [B * L] cache slots of the decode rows' contexts, padded
    decode_mask: torch.Tensor | None  # [B, 1, 1, L] True where a key is real
    decode_lengths: torch.Tensor | None  # [B] context length of each decode row
    decode_len: int
    prefills: list[PrefillGroup]


@dataclass
class StepInputs:
    input_ids: torch.Tensor  # [T]
    positions: torch.Tensor  # [T]
    logits_indices: torch.Tensor  # rows of the packed step whose next token is sampled
    meta: StepMetadata


def _slots(block_table: list[int], start: int, end: int, block_size: int) -> list[int]:
    return [block_table[p // block_size] * block_size + p % block_size for p in range(start, end)]


def _context_slots(block_tables: list[list[int]], width: int, block_size: int, device: torch.device) -> torch.Tensor:
    """[rows, width] cache slots of positions 0..width-1 of each row (past a row's end: slot of block 0)."""
    num_blocks = -(-width // block_size)
    table = torch.tensor([bt[:num_blocks] + [0] * (num_blocks - len(bt[:num_blocks])) for bt in block_tables], device=device)
    slots = table[:, :, None] * block_size + torch.arange(block_size, device=device)
    return slots.view(len(block_tables), -1)[:, :width]


def _length_buckets(chunks: list[tuple[int, int]]) -> list[list[int]]:
    """Group chunk indices (by (cached, new) sizes) so padding adds at most half to a group's attention work."""
    order = sorted(range(len(chunks)), key=lambda i: (chunks[i][1], sum(chunks[i])), reverse=True)
    groups: list[list[int]] = []
    for i in order:
        if groups:
            members = groups[-1] + [i]
            q_len = max(chunks[j][1] for j in members)
            ctx_len = max(sum(chunks[j]) for j in members)
            real = sum(chunks[j][1] * sum(chunks[j]) for j in members)
            if 2 * len(members) * q_len * ctx_len <= 3 * real + 8192:
                groups[-1].append(i)
                continue
        groups.append([i])
    return groups


@dataclass
class Chunk:
    """New tokens of one sequence in a step: ``token_ids`` at positions ``start``.. (every earlier one is cached).

    ``logits``: how many of its last tokens get logits (1 for a row that samples, 0 in the middle of a prompt,
    all of them to verify a draft's proposals). ``single``: each token attends as its own single-query row
    (a decode row; a verification or a draft's catch-up of a few tokens), which reads the cache in place;
    otherwise the chunk joins a padded prefill attention.
    """

    block_table: list[int]
    start: int
    token_ids: list[int]
    logits: int = 1
    single: bool = False


def prepare_step(batch: ScheduledBatch, block_size: int, device: torch.device) -> StepInputs:
    """Pack a scheduled batch: its decode rows, then its prefill chunks; logits in that order."""
    chunks = [Chunk(s.block_table, len(s) - 1, s.token_ids[-1:], 1, True) for s in batch.decode]
    chunks += [
        Chunk(s.block_table, s.num_computed, s.token_ids[s.num_computed : s.num_computed + n], s.prefill_logits(n))
        for s, n in batch.prefill
    ]
    return pack(chunks, block_size, device)


def pack(chunks: list[Chunk], block_size: int, device: torch.device) -> StepInputs:
    """Pack chunks into flat tensors: single-query rows first, then the others by length bucket.

    The logits rows follow the order of ``chunks`` (each chunk's wanted tokens in position order),
    whatever order the packing chose.
    """
    ids: list[int] = []
    positions: list[int] = []
    slots: list[int] = []
    rows_of: list[list[int]] = [[] for _ in chunks]  # packed rows of each chunk

    decode_tables: list[list[int]] = []
    decode_lens: list[int] = []
    for index, chunk in enumerate(chunks):
        if not chunk.single:
            continue
        for offset, token in enumerate(chunk.token_ids):
            pos = chunk.start + offset
            rows_of[index].append(len(ids))
            ids.append(token)
            positions.append(pos)
            slots.append(chunk.block_table[pos // block_size] * block_size + pos % block_size)
            decode_tables.append(chunk.block_table)
            decode_lens.append(pos + 1)
    num_decode = len(ids)
    decode_len = max(decode_lens, default=0)

    prefills: list[PrefillGroup] = []
    multi = [i for i, c in enumerate(chunks) if not c.single]
    sizes = [(chunks[i].start, len(chunks[i].token_ids)) for i in multi]
    for group in _length_buckets(sizes):
        members = [chunks[multi[g]] for g in group]
        starts = [c.start for c in members]
        lengths = [len(c.token_ids) for c in members]
        q_len, ctx_len = max(lengths), max(s + n for s, n in zip(starts, lengths))
        packed_start = len(ids)
        q_index: list[int] = []
        out_index: list[int] = []
        for p, (g, chunk, start, n) in enumerate(zip(group, members, starts, lengths)):
            first = len(ids)
            ids.extend(chunk.token_ids)
            positions.extend(range(start, start + n))
            slots.extend(_slots(chunk.block_table, start, start + n, block_size))
            rows_of[multi[g]] = list(range(first, first + n))
            q_index.extend(range(first, first + n))
            q_index.extend([first] * (q_len - n))
            out_index.extend(range(p * q_len, p * q_len + n))
        starts_t = torch.tensor(starts, device=device)[:, None]
        lengths_t = torch.tensor(lengths, device=device)[:, None]
        i = torch.arange(q_len, device=device)[None, :]
        real_query = i < lengths_t  # [P, q_len]
        mask = torch.arange(ctx_len, device=device)[None, None, :] <= (starts_t + i)[:, :, None]
        mask &= real_query[:, :, None]
        mask[:, :, 0] |= ~real_query
        prefills.append(
            PrefillGroup(
                packed_start=packed_start,
                num_tokens=len(ids) - packed_start,
                q_index=torch.tensor(q_index, device=device),
                out_index=torch.tensor(out_index, device=device),
                gather=_context_slots([c.block_table for c in members], ctx_len, block_size, device).reshape(-1),
                mask=mask.unsqueeze(1),
                rows=len(members),
                q_len=q_len,
                ctx_len=ctx_len,
            )
        )

    decode_gather = decode_mask = lens = None
    if num_decode:
        decode_gather = _context_slots(decode_tables, decode_len, block_size, device).reshape(-1)
        lens = torch.tensor(decode_lens, device=device)
        decode_mask = (torch.arange(decode_len, device=device)[None, :] < lens[:, None]).view(num_decode, 1, 1, -1)

    logits_rows = [r for chunk, rows in zip(chunks, rows_of) for r in rows[len(rows) - chunk.logits :]]
    meta = StepMetadata(
        slot_mapping=torch.tensor(slots, device=device),
        num_decode=num_decode,
        decode_gather=decode_gather,
        decode_mask=decode_mask,
        decode_lengths=lens,
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
    kernels: CpuKernels | None = None,
) -> torch.Tensor:
    """Write the step's keys/values into the cache and attend.

    q: [T, Hq, D]; kv: [T, 2, Hkv, D] (keys, values); returns [T, Hq, D]. The cache may hold a
    narrower dtype than the compute (bf16 under fp32): values are rounded on the way in and read
    back exactly. With ``kernels`` (fp32 on the CPU) decode rows read their keys and values in
    place instead of through a gathered copy.
    """
    kv_cache = cache.layer(layer)
    kv_cache.index_copy_(0, meta.slot_mapping, kv.to(kv_cache.dtype))
    num_tokens, num_heads, head_dim = q.shape
    num_kv = kv.shape[2]
    group = num_heads // num_kv
    out = torch.empty_like(q)

    b = meta.num_decode
    if b and kernels is not None:
        kernels.decode_attention(q[:b], kv_cache, meta.decode_gather, meta.decode_len, meta.decode_lengths, scale, out)
    elif b:
        # the `group` query heads sharing a KV head attend to the same keys with the same mask,
        # so they ride in the query-length dimension: no KV repeat, one batched call
        qd = q[:b].reshape(b, num_kv, group, head_dim)
        ctx = kv_cache.index_select(0, meta.decode_gather).to(q.dtype).view(b, meta.decode_len, 2, num_kv, head_dim)
        kd, vd = ctx[:, :, 0].transpose(1, 2), ctx[:, :, 1].transpose(1, 2)
        od = F.scaled_dot_product_attention(qd, kd, vd, attn_mask=meta.decode_mask, scale=scale)
        out[:b] = od.reshape(b, num_heads, head_dim)

    for g in meta.prefills:
        # same trick as above: [P, Hkv, group * q_len, D] queries against [P, Hkv, ctx, D] keys
        qp = q.index_select(0, g.q_index).view(g.rows, g.q_len, num_kv, group, head_dim)
        qp = qp.permute(0, 2, 3, 1, 4).reshape(g.rows, num_kv, group * g.q_len, head_dim)
        ctx = kv_cache.index_select(0, g.gather).to(q.dtype).view(g.rows, g.ctx_len, 2, num_kv, head_dim)
        kp, vp = ctx[:, :, 0].transpose(1, 2), ctx[:, :, 1].transpose(1, 2)
        mask = g.mask.repeat(1, 1, group, 1) if group > 1 else g.mask
        op = F.scaled_dot_product_attention(qp, kp, vp, attn_mask=mask, scale=scale)
        op = op.view(g.rows, num_kv, group, g.q_len, head_dim).permute(0, 3, 1, 2, 4)
        op = op.reshape(g.rows * g.q_len, num_heads, head_dim)
        out[g.packed_start : g.packed_start + g.num_tokens] = op.index_select(0, g.out_index)
    return out
