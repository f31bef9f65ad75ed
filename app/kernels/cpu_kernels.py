"""The engine's CPU kernels (cpu_kernels.cpp): compiled once per machine, called through ctypes.

They serve fp32 compute on x86-64 CPUs with AVX2/FMA/F16C (the LLM's choice there, bf16 arithmetic or
not: see ``app.engine.model_runner.compute_dtype``), where a decode step is otherwise bound by torch's
per-op dispatch (a few KiB per op) and by fp32 weight traffic. Each function takes raw pointers; the
wrappers here check the layouts they rely on. ctypes releases the GIL for the call, and the parallel
loops run on torch's own OpenMP threads (torch has loaded its runtime first), so
``torch.set_num_threads`` in the calling thread applies to them too.
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

from app.config import cache_home
from app.device import cpu_flags
from app.kernels.quantize import QuantizedWeight

log = logging.getLogger(__name__)

SOURCE = Path(__file__).with_name("cpu_kernels.cpp")
FLAGS = ["-O3", "-mavx2", "-mfma", "-mf16c", "-fopenmp", "-shared", "-fPIC"]
# Where the CPU has AVX-512 VNNI the quantized linears take its integer dot product (one instruction for
# what AVX2 does in three); the library is built for this machine, so its flags may follow the CPU.
VNNI_CPU_FLAGS = {"avx512f", "avx512bw", "avx512vl", "avx512_vnni"}
VNNI_FLAGS = ["-mavx512f", "-mavx512bw", "-mavx512vl", "-mavx512vnni"]


def compiler_flags() -> list[str]:
    return FLAGS + (VNNI_FLAGS if VNNI_CPU_FLAGS <= cpu_flags() else [])

ATTENTION_HEAD_DIMS = (32, 64, 128)

_i64, _f32, _ptr = ctypes.c_int64, ctypes.c_float, ctypes.c_void_p
SIGNATURES = {
    "linear_bf16_weights": [_ptr, _i64, _i64, _i64, _ptr, _i64, _ptr, _ptr, _i64],
    "linear_fp16_weights": [_ptr, _i64, _i64, _i64, _ptr, _i64, _ptr, _ptr, _i64],
    "linear_q4_weights": [_ptr, _i64, _i64, _i64, _ptr, _i64, _ptr, _ptr, _i64],
    "linear_q8_weights": [_ptr, _i64, _i64, _i64, _ptr, _i64, _ptr, _ptr, _i64],
    "add_rms_norm": [_ptr, _ptr, _i64, _i64, _ptr, _f32, _ptr],
    "rotary": [_ptr, _i64, _i64, _i64, _i64, _ptr, _ptr],
    "silu_mul": [_ptr, _i64, _i64, _ptr],
    "decode_attention_f32": [_ptr, _i64, _i64, _i64, _i64, _i64, _ptr, _ptr, _i64, _ptr, _f32, _ptr],
    "decode_attention_bf16": [_ptr, _i64, _i64, _i64, _i64, _i64, _ptr, _ptr, _i64, _ptr, _f32, _ptr],
}


def _ptr_of(t: torch.Tensor | None) -> int | None:
    return None if t is None else t.data_ptr()


def _rows(t: torch.Tensor) -> None:
    if t.dtype != torch.float32 or t.dim() != 2 or not t.is_contiguous():
        raise ValueError(f"expected a contiguous 2-D fp32 tensor, got {t.dtype} {tuple(t.shape)} {t.stride()}")


class CpuKernels:
    """Typed entry points of the compiled library."""

    def __init__(self, library: ctypes.CDLL) -> None:
        for name, argtypes in SIGNATURES.items():
            function = getattr(library, name)
            function.argtypes, function.restype = argtypes, None
        self._lib = library

    def linear(self, x: torch.Tensor, packed: torch.Tensor, out_features: int, bias: torch.Tensor | None) -> torch.Tensor:
        """``x @ W.T + bias`` with W packed by :func:`app.kernels.linear.pack_half` (bf16 or fp16); x fp32 [M, K] (unit stride)."""
        if x.stride(-1) != 1:
            x = x.contiguous()
        rows, inputs = x.shape
        y = torch.empty(rows, out_features, dtype=torch.float32)
        kernel = self._lib.linear_bf16_weights if packed.dtype == torch.bfloat16 else self._lib.linear_fp16_weights
        kernel(x.data_ptr(), rows, inputs, x.stride(0), packed.data_ptr(), out_features, _ptr_of(bias), y.data_ptr(),
               y.stride(0))
        return y

    def linear_quantized(self, x: torch.Tensor, weight: QuantizedWeight, bias: torch.Tensor | None) -> torch.Tensor:
        """``x @ W.T + bias`` with W packed at 4 or 8 bits by :func:`app.kernels.quantize.quantize`; x fp32 [M, K]."""
        if x.stride(-1) != 1:
            x = x.contiguous()
        rows, inputs = x.shape
        if inputs != weight.in_features:
            raise ValueError(f"x has {inputs} inputs, the weight {weight.in_features}")
        y = torch.empty(rows, weight.out_features, dtype=torch.float32)
        kernel = self._lib.linear_q4_weights if weight.bits == 4 else self._lib.linear_q8_weights
        kernel(x.data_ptr(), rows, inputs, x.stride(0), weight.records.data_ptr(), weight.out_features, _ptr_of(bias),
               y.data_ptr(), y.stride(0))
        return y

    def add_rms_norm(self, h: torch.Tensor, delta: torch.Tensor | None, weight: torch.Tensor,
                     eps: float) -> tuple[torch.Tensor, torch.Tensor]:
        """The residual stream after ``h += delta`` (in place, when given) and its RMS norm."""
        _rows(h)
        if delta is not None:
            _rows(delta)
        out = torch.empty_like(h)
        self._lib.add_rms_norm(h.data_ptr(), _ptr_of(delta), h.shape[0], h.shape[1], weight.data_ptr(), eps,
                               out.data_ptr())
        return h, out

    def rotary(self, x: torch.Tensor, heads: int, head_dim: int, cos: torch.Tensor, sin: torch.Tensor) -> None:
        """Rotary embedding in place on the first ``heads`` heads of each row of ``x`` ([T, width], unit
        stride); ``cos``/``sin``: [T, head_dim] rows, sin signed as in :class:`app.engine.lean_llama.LeanLlama`."""
        if x.dtype != torch.float32 or x.stride(-1) != 1 or x.shape[1] < heads * head_dim:
            raise ValueError("rotary needs fp32 rows holding the rotated heads first")
        if not (cos.is_contiguous() and sin.is_contiguous()):
            raise ValueError("rotary needs contiguous cos/sin rows")
        self._lib.rotary(x.data_ptr(), x.shape[0], x.stride(0), heads, head_dim, cos.data_ptr(), sin.data_ptr())

    def silu_mul(self, gate_up: torch.Tensor) -> torch.Tensor:
        """``silu(gate) * up`` of rows holding gate then up."""
        _rows(gate_up)
        out = torch.empty(gate_up.shape[0], gate_up.shape[1] // 2, dtype=torch.float32)
        self._lib.silu_mul(gate_up.data_ptr(), gate_up.shape[0], out.shape[1], out.data_ptr())
        return out

    def decode_attention(self, q: torch.Tensor, kv_cache: torch.Tensor, slots: torch.Tensor, width: int,
                         lengths: torch.Tensor, scale: float, out: torch.Tensor) -> None:
        """Single-query attention of decode rows q [B, Hq, D] over the cache layer [slots, 2, Hkv, D] (fp32 or bf16)
        into ``out``."""
        rows, q_heads, head_dim = q.shape
        kv_heads = kv_cache.shape[2]
        if head_dim not in ATTENTION_HEAD_DIMS:
            raise ValueError(f"decode_attention supports head_dim {ATTENTION_HEAD_DIMS}, not {head_dim}")
        if q.stride(2) != 1 or q.stride(1) != head_dim or not kv_cache.is_contiguous() or not out.is_contiguous():
            raise ValueError("decode_attention needs packed heads in q and a contiguous cache and output")
        if kv_cache.dtype not in (torch.float32, torch.bfloat16):
            raise ValueError(f"decode_attention reads an fp32 or bf16 cache, not {kv_cache.dtype}")
        kernel = self._lib.decode_attention_bf16 if kv_cache.dtype == torch.bfloat16 else self._lib.decode_attention_f32
        kernel(q.data_ptr(), q.stride(0), rows, q_heads, kv_heads, head_dim, kv_cache.data_ptr(), slots.data_ptr(), width,
               lengths.data_ptr(), scale, out.data_ptr())


@functools.cache
def load() -> CpuKernels | None:
    """The kernels, or None where they cannot run (no AVX2/FMA/F16C, no C++ compiler, a failed build)."""
    return build(tuple(compiler_flags()))


@functools.cache
def build(flags: tuple[str, ...]) -> CpuKernels | None:
    """The kernels compiled with ``flags`` (the tests also build the plain AVX2 variant on a VNNI CPU)."""
    if not {"avx2", "fma", "f16c"} <= cpu_flags():
        return None
    compiler = os.environ.get("CXX") or shutil.which("c++") or shutil.which("g++")
    if compiler is None:
        log.warning("no C++ compiler found: the engine runs without its CPU kernels (fp32 weights, torch ops)")
        return None
    key = hashlib.sha256(SOURCE.read_bytes() + " ".join([compiler, *flags]).encode()).hexdigest()[:16]
    library = cache_home() / "voicechat" / "kernels" / f"cpu_kernels-{key}.so"
    if not library.exists():
        library.parent.mkdir(parents=True, exist_ok=True)
        log.info("compiling the engine's CPU kernels (once per machine) into %s", library)
        with tempfile.TemporaryDirectory(dir=library.parent) as tmp:
            built = Path(tmp) / library.name
            done = subprocess.run([compiler, *flags, str(SOURCE), "-o", str(built)], capture_output=True, text=True)
            if done.returncode != 0:
                log.warning("the engine's CPU kernels did not compile; running without them:\n%s", done.stderr[-2000:])
                return None
            built.replace(library)
    return CpuKernels(ctypes.CDLL(str(library)))
