"""Linear layers of the LLM's lean forward and of Whisper on CPU, in the fastest form this machine offers.

- CPU, bf16/fp16 compute: the weight prepacked once for oneDNN (streams 1.5-2x faster than the
  default matmul at decode batch sizes).
- CPU, fp32 compute, weights that are exact in bf16 or fp16 (a bf16 LLM checkpoint on any AVX2 CPU,
  Whisper's fp16 weights where it computes in fp32): the weight kept in that format and multiplied by the
  AVX2 kernel in cpu_kernels.cpp, which streams half the bytes of an fp32 copy for the same products
  (app/kernels/cpu_kernels.py); where the kernels cannot run (no AVX2/FMA/F16C, no C++ compiler) the
  next form is used.
- CPU, fp32 otherwise: prepacked for oneDNN as well (2x the default matmul at batch 8 on AMD CPUs).
- CPU, fp32 compute, ``bits`` 4 or 8: the weight kept quantized per group of 32 inputs and multiplied
  by the quantized kernels (cpu_kernels.cpp): a quarter (an eighth against fp32) of the bytes a
  16-bit weight streams; a weight dequantized from 4-bit GGUF blocks packs back to its own values. On a
  CPU with AMX, a prefill's many rows multiply in bf16 tiles over the weight dequantized block by block.
- GPU: ``F.linear``.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F

from app.kernels import cpu_kernels
from app.kernels.quantize import BLOCK, QuantizedWeight, quantizable, quantize


class Linear:
    """``y = x W^T + b`` over a weight taken from the loaded model.

    ``bits`` 4 or 8 keeps the weight quantized (app/kernels/quantize.py) where the CPU kernels run
    (fp32 compute, inputs a multiple of 32); 'auto' picks 4 where the weight holds at 4 bits (it came
    from 4-bit GGUF blocks), else 8; 16 keeps the 16-bit forms above. ``compute_dtype`` (default: the
    weight's) is what ``x`` and ``y`` hold: a bf16 weight under fp32 compute goes to the kernels as it is.
    """

    def __init__(self, weight: torch.Tensor | QuantizedWeight, bias: torch.Tensor | None = None, *,
                 half_weights: bool = True, bits: int | str = 16, compute_dtype: torch.dtype | None = None) -> None:
        """``weight`` may come packed already (a cached :class:`QuantizedWeight`, for fp32 compute on a CPU with the kernels)."""
        self.weight = self.packed = self.kernel = self.quantized = None
        if isinstance(weight, QuantizedWeight):
            self.kernel, self.quantized, self.out_features = cpu_kernels.load(), weight, weight.out_features
            self.bias = self._padded(bias)
            return
        compute = compute_dtype or weight.dtype
        self.out_features = weight.shape[0]
        self.bias = None if bias is None else bias.to(compute)
        on_cpu = weight.device.type == "cpu"
        kernels = cpu_kernels.load() if on_cpu and compute == torch.float32 else None
        if kernels is not None and bits != 16 and quantizable(weight):
            self.kernel = kernels
            self.quantized = quantize(weight, None if bits == "auto" else int(bits))
            self.bias = self._padded(self.bias)
            return
        half = _exact_half_dtype(weight) if kernels is not None and half_weights else None
        weight = weight if half is not None else weight.to(compute)
        if not on_cpu:
            self.weight = weight
        elif half is not None:
            self.kernel = kernels
            self.packed = pack_half(weight, half)
            self.bias = self._padded(self.bias)
        elif _mkldnn_linear_ok(weight.dtype):
            self.packed = torch.ops.mkldnn._reorder_linear_weight(weight, 8)
        else:
            self.weight = weight

    def _padded(self, bias: torch.Tensor | None) -> torch.Tensor | None:
        """The bias padded to whole blocks of 16 columns, as the kernels read it."""
        return None if bias is None else F.pad(bias.float(), (0, -(-self.out_features // BLOCK) * BLOCK - bias.numel()))

    @property
    def weight_format(self) -> str:
        """How the weight is streamed: 'q4', 'q8', or a dtype name."""
        if self.quantized is not None:
            return f"q{self.quantized.bits}"
        return str(self.weight_dtype).removeprefix("torch.")

    @property
    def weight_dtype(self) -> torch.dtype:
        if self.quantized is not None:
            return torch.uint8
        return (self.weight if self.weight is not None else self.packed).dtype

    @property
    def weight_bytes(self) -> int:
        """Bytes read from memory per call (each weight once)."""
        if self.quantized is not None:
            return self.quantized.nbytes
        tensor = self.weight if self.weight is not None else self.packed
        return tensor.numel() * tensor.element_size()

    def __call__(self, x: torch.Tensor) -> torch.Tensor:
        rows = x if x.dim() == 2 else x.reshape(-1, x.shape[-1])  # Whisper's [batch, tokens, width]: 2-D rows
        if self.quantized is not None:
            y = self.kernel.linear_quantized(rows, self.quantized, self.bias)
        elif self.kernel is not None:
            y = self.kernel.linear(rows, self.packed, self.out_features, self.bias)
        elif self.packed is not None:
            return torch.ops.mkldnn._linear_pointwise(x, self.packed, self.bias, "none", [], "")
        else:
            return F.linear(x, self.weight, self.bias)
        return y if x.dim() == 2 else y.view(*x.shape[:-1], self.out_features)


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
