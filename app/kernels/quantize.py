"""4- and 8-bit weights in the record layout of cpu_kernels.cpp, and which of the two a weight needs.

Decode streams every weight once per step, so bytes per weight set the speed. Both formats group
32 inputs: Q4 is affine (``w = q * scale + min``, q in 0..15), the grid of GGUF's Q4_0/Q4_1/Q4_K, so
a weight dequantized from such a checkpoint packs back to its own values; Q8 is symmetric
(``w = q * scale``, q in -127..127) for the weights a checkpoint kept finer (Q5/Q6/Q8, 16 bits).
Scales and mins are fp16. Per block of 16 output columns, one record per group, its inputs in quads
(the kernels' integer dot products take 4 inputs of a column at once): Q4 = [16 scales][16 mins]
[8 quads x 32 nibble bytes] (320 bytes), Q8 = [16 scales][8 quads x 64 int8] (544 bytes); the byte
order is cpu_kernels.cpp's.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn.functional as F

GROUP = 32  # inputs per scale
BLOCK = 16  # output columns per record (and per packed block of 16-bit weights: cpu_kernels.cpp)
RECORD_BYTES = {4: 64 + GROUP * 8, 8: 32 + GROUP * 16}
# A weight packs at 4 bits when that changes it by at most this much (relative RMS error). Weights
# that came from 4-bit GGUF blocks measure ~0.001-0.004 (the bf16 rounding of the dequantized
# values); a weight kept at 6 bits or more measures ~0.08 at 4 bits, so the line between them is clear.
EXACT_4BIT = 0.01
_SAMPLE_ROWS = 256  # rows whose 4-bit error decides a large weight's format before the whole is packed
_ROWS_PER_CHUNK = 4096  # bounds the fp32 temporaries of quantizing an embedding-sized weight


@dataclass
class QuantizedWeight:
    """A packed weight: ``records`` [ceil(N / 16), K / 32, record bytes] uint8."""

    bits: int
    records: torch.Tensor
    out_features: int
    in_features: int

    @property
    def nbytes(self) -> int:
        return self.records.numel()


def timing_weight(nbytes: int, inputs: int) -> QuantizedWeight:
    """A 4-bit weight of about ``nbytes`` of random codes with zero scales and mins: the kernels' full work
    over finite sums, for measuring how fast this machine streams 4-bit weights."""
    groups = inputs // GROUP
    blocks = nbytes // (groups * RECORD_BYTES[4])
    records = torch.randint(0, 256, (blocks, groups, RECORD_BYTES[4]), dtype=torch.uint8)
    records[..., :64] = 0
    return QuantizedWeight(4, records, blocks * BLOCK, inputs)


def quantizable(weight: torch.Tensor) -> bool:
    return weight.dim() == 2 and weight.shape[1] % GROUP == 0


def quantize(weight: torch.Tensor, bits: int | None = None) -> QuantizedWeight:
    """Pack ``weight`` [N, K] at ``bits`` (4 or 8); None picks 4 where the weight holds there
    (:data:`EXACT_4BIT`), else 8."""
    n, k = weight.shape
    if k % GROUP:
        raise ValueError(f"{k} inputs are not a multiple of the group size {GROUP}")
    if bits is None and n > _SAMPLE_ROWS and _error4(weight[:_SAMPLE_ROWS]) > EXACT_4BIT:
        return quantize(weight, 8)  # the sample decides: fitting 4-bit grids to all of a finer weight is slow
    blocks = -(-n // BLOCK)
    padded = n if n % BLOCK == 0 else blocks * BLOCK
    parts, error, norm = [], 0.0, 0.0  # records are made chunk by chunk: the fp32 temporaries stay small
    for start in range(0, padded, _ROWS_PER_CHUNK):
        rows = weight[start : start + _ROWS_PER_CHUNK].float()
        wanted = min(_ROWS_PER_CHUNK, padded - start)
        if rows.shape[0] < wanted:  # the last block's missing columns: zero weights
            rows = F.pad(rows, (0, 0, 0, wanted - rows.shape[0]))
        groups = rows.view(-1, k // GROUP, GROUP)
        if bits in (None, 4):
            q, scale, low = _affine4(groups)
            if bits is None:
                error += float(((q * scale[..., None] + low[..., None]) - groups).square().sum())
                norm += float(groups.square().sum())
            parts.append(_records4(q, scale, low))
        else:
            parts.append(_records8(*_symmetric8(groups)))
    if bits is None and error > EXACT_4BIT**2 * max(norm, 1e-30):
        return quantize(weight, 8)
    return QuantizedWeight(bits or 4, torch.cat(parts).contiguous(), n, k)


def _error4(weight: torch.Tensor) -> float:
    groups = weight.float().view(-1, GROUP)
    q, scale, low = _affine4(groups)
    return float((q * scale[..., None] + low[..., None] - groups).norm() / groups.norm().clamp_min(1e-30))


def dequantize(packed: QuantizedWeight) -> torch.Tensor:
    """The fp32 weight [N, K] that the kernels multiply by (the reference of the tests)."""
    records = packed.records
    blocks, groups, _ = records.shape
    scale = records[..., :32].contiguous().view(torch.float16).float()  # [blocks, groups, 16]
    if packed.bits == 4:
        low = records[..., 32:64].contiguous().view(torch.float16).float()
        nibbles = records[..., 64:].view(blocks, groups, 8, 8, 4)  # [quad, column 0-7, input]
        q = torch.cat((nibbles & 15, nibbles >> 4), dim=3).float()  # [blocks, groups, 8, 16, 4]
        offset = low[:, :, None, :, None]
    else:
        q = records[..., 32:].contiguous().view(torch.int8).view(blocks, groups, 8, BLOCK, 4).float()
        offset = 0.0
    w = q * scale[:, :, None, :, None] + offset
    # [blocks, groups, quads, 16 columns, 4 inputs] -> [blocks * 16, groups * 32]
    w = w.permute(0, 3, 1, 2, 4).reshape(blocks * BLOCK, groups * GROUP)
    return w[: packed.out_features]


def _affine4(groups: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Each group's affine 4-bit grid: the checkpoint's own where its values lie on one, else min/max
    over 15 steps. A GGUF Q4_K group often spans 13 or 14 of its 16 levels (its scales are themselves
    quantized), so min/max alone would miss its grid: shorter spans are tried in turn on the groups that
    do not fit yet."""
    shape = groups.shape
    groups = groups.reshape(-1, GROUP)
    low, high = groups.amin(-1), groups.amax(-1)
    span = high - low
    scale = span / 15
    unfit = ~_on_grid(groups, low, scale)
    for steps in _SPANS:
        rows = unfit.nonzero().squeeze(-1)
        if rows.numel() == 0:
            break
        candidate = span[rows] / steps
        fits = _on_grid(groups[rows], low[rows], candidate)
        scale[rows[fits]] = candidate[fits]
        unfit[rows[fits]] = False
    scale, low = scale.half().float(), low.half().float()
    q = ((groups - low[..., None]) / _divisor(scale)[..., None]).round_().clamp_(0, 15)
    return q.view(shape), scale.view(shape[:-1]), low.view(shape[:-1])


_SPANS = (14, 13, 12, 11, 10)  # levels a group of a 4-bit block may span besides all 16


def _on_grid(groups: torch.Tensor, low: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:
    """Whether every value of a group is within a fifth of a step of ``low + q * scale`` (bf16 storage moves
    a value by up to ~0.05 of a step; the wrong span leaves some value near half a step off)."""
    steps = (groups - low[..., None]) / _divisor(scale)[..., None]
    return ((steps - steps.round()).abs().amax(-1) < 0.2) & (steps.amax(-1) < 15.5)


def _divisor(scale: torch.Tensor) -> torch.Tensor:
    """``scale`` with its zeros (constant groups) as 1: dividing by it leaves those groups at q = 0."""
    return torch.where(scale > 0, scale, torch.ones_like(scale))


def _symmetric8(groups: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    scale = (groups.abs().amax(-1) / 127).half().float()
    q = (groups / _divisor(scale)[..., None]).round_().clamp_(-127, 127)
    return q, scale


def _columns_last(values: torch.Tensor) -> torch.Tensor:
    """[rows, ...] per-row values -> [rows / 16, ..., 16]: each record's 16 columns together."""
    return values.view(-1, BLOCK, *values.shape[1:]).movedim(1, -1)


def _half_bytes(values: torch.Tensor) -> torch.Tensor:
    """[blocks, groups, 16] fp32 -> [blocks, groups, 32] bytes of fp16."""
    return values.half().contiguous().view(torch.uint8)


def _quads(q: torch.Tensor) -> torch.Tensor:
    """[rows, groups, 32] -> [blocks, groups, 8 quads, 16 columns, 4 inputs]: a quad's 4 inputs of a column together."""
    b, g = q.shape[0] // BLOCK, q.shape[1]
    return _columns_last(q).view(b, g, 8, 4, BLOCK).transpose(-1, -2)


def _records4(q: torch.Tensor, scale: torch.Tensor, low: torch.Tensor) -> torch.Tensor:
    quads = _quads(q.to(torch.uint8))
    packed = quads[..., :8, :] | (quads[..., 8:, :] << 4)  # byte 4j + i: column j low, column j + 8 high
    b, g = packed.shape[:2]
    return torch.cat((_half_bytes(_columns_last(scale)), _half_bytes(_columns_last(low)), packed.reshape(b, g, -1)), -1)


def _records8(q: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:
    quads = _quads(q.to(torch.int8)).contiguous().view(torch.uint8)  # per quad: columns 0-7, then 8-15
    b, g = quads.shape[:2]
    return torch.cat((_half_bytes(_columns_last(scale)), quads.reshape(b, g, -1)), -1)


def round_activations(x: torch.Tensor) -> torch.Tensor:
    """``x`` [M, K] as the quantized kernels multiply it: each group of 32 inputs of a row rounded to int8
    with scale max|x| / 127 (the reference of the tests; the kernels do it in C)."""
    groups = x.float().reshape(x.shape[0], x.shape[1] // GROUP, GROUP)
    top = groups.abs().amax(-1, keepdim=True)
    inverse = torch.where(top > 0, 127 / top, torch.zeros_like(top))
    return ((groups * inverse).round() * (top / 127)).view(x.shape)
