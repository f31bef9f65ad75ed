"""Linear layers of the LLM's lean forward and of Whisper on CPU, in the fastest form this machine offers.

- CPU, bf16/fp16 compute: the weight prepacked once for oneDNN (streams 1.5-2x faster than the
  default matmul at decode batch sizes).
- CPU, fp32 compute, weights that are exact in bf16 or fp16 (a bf16 LLM checkpoint on any AVX2 CPU,
  Whisper's fp16 weights where it computes in fp32): the weight kept in that format and multiplied by the
  AVX2 kernel in cpu_kernels.cpp, which streams half the bytes of an fp32 copy for the same products
  (app/kernels/cpu_kernels.py); where the kernels cannot run (no AVX2/FMA/F16C, no C++ compiler) the
  next form is used.
- CPU, fp32 otherwise: prepacked for oneDNN as well (2x the default matmul at batch 8 on AMD CPUs).
- GPU: ``F.linear``.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F

from app.kernels import cpu_kernels

BLOCK = 16  # output columns per packed block (cpu_kernels.cpp)


class Linear:
    """``y = x W^T + b`` over a weight taken from the loaded model."""

    def __init__(self, weight: torch.Tensor, bias: torch.Tensor | None = None, *, half_weights: bool = True) -> None:
        self.out_features = weight.shape[0]
        self.bias = bias
        self.weight = self.packed = self.kernel = None
        on_cpu = weight.device.type == "cpu"
        kernels = cpu_kernels.load() if on_cpu and weight.dtype == torch.float32 and half_weights else None
        half = _exact_half_dtype(weight) if kernels is not None else None
        if not on_cpu:
            self.weight = weight
        elif half is not None:
            self.kernel = kernels
            self.packed = pack_half(weight, half)
            self.bias = None if bias is None else F.pad(bias.float(), (0, self.packed.shape[0] * BLOCK - bias.numel()))
        elif _mkldnn_linear_ok(weight.dtype):
            self.packed = torch.ops.mkldnn._reorder_linear_weight(weight, 8)
        else:
            self.weight = weight

    @property
    def weight_dtype(self) -> torch.dtype:
        return (self.weight if self.weight is not None else self.packed).dtype

    def __call__(self, x: torch.Tensor) -> torch.Tensor:
        if self.kernel is not None and x.dim() == 2:  # the LLM's packed rows
            return self.kernel.linear(x, self.packed, self.out_features, self.bias)
        if self.kernel is not None:  # Whisper's [batch, tokens, width]: the kernel takes 2-D rows
            rows = x.reshape(-1, x.shape[-1])
            return self.kernel.linear(rows, self.packed, self.out_features, self.bias).view(*x.shape[:-1], self.out_features)
        if self.packed is not None:
            return torch.ops.mkldnn._linear_pointwise(x, self.packed, self.bias, "none", [], "")
        return F.linear(x, self.weight, self.bias)


def pack_half(weight: torch.Tensor, dtype: torch.dtype) -> torch.Tensor:
    """[N, K] weight -> [ceil(N / 16), K, 16] in bf16 or fp16, in the kernel's column order (cpu_kernels.cpp)."""
    n, k = weight.shape
    blocks = -(-n // BLOCK)
    padded = F.pad(weight.to(dtype), (0, 0, 0, blocks * BLOCK - n)).view(blocks, BLOCK, k)
    if dtype == torch.bfloat16:  # c0, c8, c1, c9, ...: one load, then a shift and a mask
        padded = padded[:, torch.tensor([c for i in range(BLOCK // 2) for c in (i, i + BLOCK // 2)])]
    return padded.transpose(1, 2).contiguous()


def _exact_half_dtype(weight: torch.Tensor) -> torch.dtype | None:
    """bf16 or fp16 where every value of ``weight`` survives the round trip, else None."""
    for dtype in (torch.bfloat16, torch.float16):
        if torch.equal(weight.to(dtype).float(), weight):
            return dtype
    return None


def _mkldnn_linear_ok(dtype: torch.dtype) -> bool:
    if not (torch.backends.mkldnn.is_available() and hasattr(torch.ops.mkldnn, "_reorder_linear_weight")):
        return False
    if dtype == torch.bfloat16:
        return torch.ops.mkldnn._is_mkldnn_bf16_supported()
    if dtype == torch.float16:
        return torch.ops.mkldnn._is_mkldnn_fp16_supported()
    return dtype == torch.float32
