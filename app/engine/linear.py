"""Linear layers of the lean forward, in the fastest form this machine offers.

- CPU, bf16/fp16 compute: the weight prepacked once for oneDNN (streams 1.5-2x faster than the
  default matmul at decode batch sizes).
- CPU, fp32 compute, weights that are exact in bf16 (a bf16 checkpoint on a CPU without bf16
  arithmetic): the weight kept in bf16 and multiplied by the AVX2 kernel in linear_bf16.cpp, which
  streams half the bytes of an fp32 copy for the same products. It is compiled once per machine
  with the system C++ compiler; without one (or without AVX2/FMA) the next form is used.
- CPU, fp32 otherwise: prepacked for oneDNN as well (2x the default matmul at batch 8 on AMD CPUs).
- GPU: ``F.linear``.
"""

from __future__ import annotations

import ctypes
import functools
import hashlib
import logging
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import torch
import torch.nn.functional as F

from app.config import cache_home

log = logging.getLogger(__name__)

KERNEL_SOURCE = Path(__file__).with_name("linear_bf16.cpp")
KERNEL_FLAGS = ["-O3", "-mavx2", "-mfma", "-fopenmp", "-shared", "-fPIC"]
BLOCK = 16  # output columns per packed block (linear_bf16.cpp)


class Linear:
    """``y = x W^T + b`` over a weight taken from the loaded model."""

    def __init__(self, weight: torch.Tensor, bias: torch.Tensor | None = None, *, bf16_weights: bool = True) -> None:
        self.out_features = weight.shape[0]
        self.bias = bias
        self.weight = self.packed = self.kernel = None
        if weight.device.type != "cpu":
            self.weight = weight
        elif weight.dtype == torch.float32 and bf16_weights and _exact_in_bf16(weight) and bf16_kernel() is not None:
            self.kernel = bf16_kernel()
            self.packed = pack_bf16(weight)
            self.bias = None if bias is None else F.pad(bias.float(), (0, self.packed.shape[0] * BLOCK - bias.numel()))
        elif _mkldnn_linear_ok(weight.dtype):
            self.packed = torch.ops.mkldnn._reorder_linear_weight(weight, 8)
        else:
            self.weight = weight

    @property
    def weight_dtype(self) -> torch.dtype:
        return torch.bfloat16 if self.kernel is not None else (self.weight if self.weight is not None else self.packed).dtype

    def __call__(self, x: torch.Tensor) -> torch.Tensor:
        if self.kernel is not None:
            return self._bf16_kernel(x)
        if self.packed is not None:
            return torch.ops.mkldnn._linear_pointwise(x, self.packed, self.bias, "none", [], "")
        return F.linear(x, self.weight, self.bias)

    def _bf16_kernel(self, x: torch.Tensor) -> torch.Tensor:
        if x.stride(-1) != 1:
            x = x.contiguous()
        rows, inputs = x.shape
        y = torch.empty(rows, self.out_features, dtype=torch.float32)
        self.kernel(x.data_ptr(), rows, inputs, x.stride(0), self.packed.data_ptr(), self.out_features,
                    None if self.bias is None else self.bias.data_ptr(), y.data_ptr(), y.stride(0))
        return y


def pack_bf16(weight: torch.Tensor) -> torch.Tensor:
    """[N, K] weight -> [ceil(N / 16), K, 16] bf16 in the kernel's column order (c0, c8, c1, c9, ...)."""
    n, k = weight.shape
    blocks = -(-n // BLOCK)
    padded = F.pad(weight.to(torch.bfloat16), (0, 0, 0, blocks * BLOCK - n))
    order = torch.tensor([c for i in range(BLOCK // 2) for c in (i, i + BLOCK // 2)])
    return padded.view(blocks, BLOCK, k)[:, order].transpose(1, 2).contiguous()


def _exact_in_bf16(weight: torch.Tensor) -> bool:
    return torch.equal(weight.to(torch.bfloat16).float(), weight)


def _mkldnn_linear_ok(dtype: torch.dtype) -> bool:
    if not (torch.backends.mkldnn.is_available() and hasattr(torch.ops.mkldnn, "_reorder_linear_weight")):
        return False
    if dtype == torch.bfloat16:
        return torch.ops.mkldnn._is_mkldnn_bf16_supported()
    if dtype == torch.float16:
        return torch.ops.mkldnn._is_mkldnn_fp16_supported()
    return dtype == torch.float32


def _cpu_flags() -> set[str]:
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return set()
    return next((set(line.split(":", 1)[1].split()) for line in text.splitlines() if line.startswith("flags")), set())


@functools.cache
def bf16_kernel():
    """The compiled kernel's entry point, or None where it cannot run (no AVX2/FMA, no compiler)."""
    if not {"avx2", "fma"} <= _cpu_flags():
        return None
    compiler = os.environ.get("CXX") or shutil.which("c++") or shutil.which("g++")
    if compiler is None:
        log.warning("no C++ compiler found: bf16 weights are kept as fp32 copies (twice the memory traffic)")
        return None
    source = KERNEL_SOURCE.read_bytes()
    key = hashlib.sha256(source + " ".join([compiler, *KERNEL_FLAGS]).encode()).hexdigest()[:16]
    library = cache_home() / "voicechat" / "kernels" / f"linear_bf16-{key}.so"
    if not library.exists():
        library.parent.mkdir(parents=True, exist_ok=True)
        log.info("compiling the bf16-weight linear kernel (once per machine) into %s", library)
        with tempfile.TemporaryDirectory(dir=library.parent) as tmp:
            built = Path(tmp) / library.name
            done = subprocess.run([compiler, *KERNEL_FLAGS, str(KERNEL_SOURCE), "-o", str(built)],
                                  capture_output=True, text=True)
            if done.returncode != 0:
                log.warning("the bf16-weight kernel did not compile; using fp32 weights:\n%s", done.stderr[-2000:])
                return None
            built.replace(library)
    # torch has loaded its OpenMP runtime already, so the kernel's parallel loops run on torch's threads
    function = ctypes.CDLL(str(library)).linear_bf16_weights
    function.argtypes = [ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64, ctypes.c_int64, ctypes.c_void_p,
                         ctypes.c_int64, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64]
    function.restype = None
    return function
