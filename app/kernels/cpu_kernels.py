"""The engine's CPU kernels (cpu_kernels.cpp): compiled once per machine, called through ctypes.

They serve fp32 compute on x86-64 CPUs with AVX2/FMA/F16C (the LLM's choice there, bf16 arithmetic or
not: see ``app.engine.model_runner.compute_dtype``; AVX-512 VNNI and AMX where the CPU has them), where
a decode step is otherwise bound by torch's per-op dispatch (a few KiB per op) and by fp32 weight
traffic. Each function takes raw pointers; the wrappers here check the layouts they rely on.

The bindings come from one source, the ``extern "C"`` definitions in cpu_kernels.cpp: their argument
types and names are parsed from it, and each function is bound with its parameter names, so every call
here passes its arguments by name and a C++ signature that drifts from the calls (an argument added,
dropped, renamed or reordered, a type ctypes cannot convert) raises a TypeError instead of calling the
code with the wrong arguments. ctypes releases the GIL for the call, and the parallel
loops run on torch's own OpenMP threads (torch has loaded its runtime first), so
``torch.set_num_threads`` in the calling thread applies to them too.
"""

from __future__ import annotations

import ctypes
import functools
import hashlib
import logging
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import torch

from app.config import cache_home
from app.device import cpu_flags
from app.kernels.quantize import QuantizedWeight

log = logging.getLogger(__name__)

SOURCE = Path(__file__).with_name("cpu_kernels.cpp")
FLAGS = ["-O3", "-mavx2", "-mfma", "-mf16c", "-fopenmp", "-shared", "-fPIC"]
# Where the CPU has AVX-512 VNNI the quantized linears take its integer dot product over 16 columns at once
# (one instruction a row and quad of inputs, where AVX2 takes four for 4-bit weights and eight for 8-bit); the
# library is built for this machine, so its flags may follow the CPU.
VNNI_CPU_FLAGS = {"avx512f", "avx512bw", "avx512vl", "avx512_vnni"}
VNNI_FLAGS = ["-mavx512f", "-mavx512bw", "-mavx512vl", "-mavx512vnni"]
# Where it also has AMX, prefills over those weights multiply in bf16 tiles; a compiler without AMX support
# builds the VNNI library instead.
AMX_CPU_FLAGS = VNNI_CPU_FLAGS | {"avx512_bf16", "amx_tile", "amx_bf16"}
AMX_FLAGS = ["-mavx512bf16", "-mamx-tile", "-mamx-bf16"]


def without_amx(flags: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """``flags`` less AMX's: the library a CPU with AMX falls back to, and is measured against."""
    return tuple(flag for flag in flags if flag not in AMX_FLAGS)


def compiler_flags() -> list[str]:
    flags = cpu_flags()
    return FLAGS + (VNNI_FLAGS if VNNI_CPU_FLAGS <= flags else []) + (AMX_FLAGS if AMX_CPU_FLAGS <= flags else [])

ATTENTION_HEAD_DIMS = (32, 64, 128)

# the C types the kernels' signatures may use, as ctypes converts them (any pointer: an address)
C_TYPES = {"int64_t": ctypes.c_int64, "float": ctypes.c_float}
EXPORTED = re.compile(r'extern "C"\s+(\w+)\s+(\w+)\s*\(([^)]*)\)')
PARAMETER = re.compile(r"^(?:const\s+)?(\w+)\s*(\*?)\s*(\w+)$")


class KernelSignatureError(ValueError):
    """A kernel signature the bindings cannot express, or a kernel the library lacks."""


@dataclass(frozen=True)
class Prototype:
    """One exported kernel: its name and its parameters (name, ctypes type) in order."""

    name: str
    parameters: tuple[tuple[str, type], ...]

    def bind(self, library: ctypes.CDLL) -> Callable[..., None]:
        """The library's function, called by keyword with exactly these parameters (ctypes checks names,
        count and the conversion of each argument)."""
        if not hasattr(library, self.name):
            raise KernelSignatureError(f"the kernels' library has no function {self.name}")
        kind = ctypes.CFUNCTYPE(None, *(argtype for _, argtype in self.parameters))
        return kind((self.name, library), tuple((1, name) for name, _ in self.parameters))


def prototypes(source: str) -> dict[str, Prototype]:
    """The ``extern "C"`` functions of the kernels' C++ source (all return void; parameters are pointers, int64_t
    or float)."""
    found: dict[str, Prototype] = {}
    for result, name, parameter_list in EXPORTED.findall(source):
        if result != "void":
            raise KernelSignatureError(f"kernel {name} returns {result}; the bindings expect void")
        parameters = []
        for text in parameter_list.split(","):
            match = PARAMETER.match(" ".join(text.split()))
            if match is None or (not match[2] and match[1] not in C_TYPES):
                raise KernelSignatureError(f"kernel {name}: cannot bind the parameter {text.strip()!r}")
            parameters.append((match[3], ctypes.c_void_p if match[2] else C_TYPES[match[1]]))
        found[name] = Prototype(name, tuple(parameters))
    return found


def _ptr_of(t: torch.Tensor | None) -> int | None:
    return None if t is None else t.data_ptr()


def _rows(t: torch.Tensor) -> None:
    if t.dtype != torch.float32 or t.dim() != 2 or not t.is_contiguous():
        raise ValueError(f"expected a contiguous 2-D fp32 tensor, got {t.dtype} {tuple(t.shape)} {t.stride()}")


class CpuKernels:
    """Typed entry points of the compiled library."""

    def __init__(self, library: ctypes.CDLL, signatures: dict[str, Prototype]) -> None:
        """``signatures``: :func:`prototypes` of the source the library was built from."""
        self.library = library
        bound = {name: prototype.bind(library) for name, prototype in signatures.items()}
        try:
            self._linear = {torch.bfloat16: bound["linear_bf16_weights"], torch.float16: bound["linear_fp16_weights"]}
            self._linear_quantized = {4: bound["linear_q4_weights"], 8: bound["linear_q8_weights"]}
            self._add_rms_norm, self._rotary, self._silu_mul = bound["add_rms_norm"], bound["rotary"], bound["silu_mul"]
            self._attention = {torch.float32: bound["decode_attention_f32"], torch.bfloat16: bound["decode_attention_bf16"]}
            rows = ctypes.c_int64()
            bound["tile_min_rows"](rows=ctypes.addressof(rows))
        except KeyError as missing:
            raise KernelSignatureError(f"the kernels' source defines no {missing}") from None
        # the rows from which a 4/8-bit linear multiplies in AMX tiles (bf16), 0 where it never does
        self.tile_min_rows = rows.value

    def linear(self, x: torch.Tensor, packed: torch.Tensor, out_features: int, bias: torch.Tensor | None) -> torch.Tensor:
        """``x @ W.T + bias`` with W packed by :func:`app.kernels.linear.pack_half` (bf16 or fp16); x fp32 [M, K]
        (unit stride)."""
        if x.stride(-1) != 1:
            x = x.contiguous()
        rows, inputs = x.shape
        y = torch.empty(rows, out_features, dtype=torch.float32)
        self._linear[packed.dtype](x=x.data_ptr(), M=rows, K=inputs, ldx=x.stride(0), w=packed.data_ptr(), N=out_features,
                                   bias=_ptr_of(bias), y=y.data_ptr(), ldy=y.stride(0))
        return y

    def linear_quantized(self, x: torch.Tensor, weight: QuantizedWeight, bias: torch.Tensor | None) -> torch.Tensor:
        """``x @ W.T + bias`` with W packed at 4 or 8 bits by :func:`app.kernels.quantize.quantize`; x fp32 [M, K]."""
        if x.stride(-1) != 1:
            x = x.contiguous()
        rows, inputs = x.shape
        if inputs != weight.in_features:
            raise ValueError(f"x has {inputs} inputs, the weight {weight.in_features}")
        y = torch.empty(rows, weight.out_features, dtype=torch.float32)
        self._linear_quantized[weight.bits](x=x.data_ptr(), M=rows, K=inputs, ldx=x.stride(0), w=weight.records.data_ptr(),
                                            N=weight.out_features, bias=_ptr_of(bias), y=y.data_ptr(), ldy=y.stride(0))
        return y

    def add_rms_norm(self, h: torch.Tensor, delta: torch.Tensor | None, weight: torch.Tensor,
                     eps: float) -> tuple[torch.Tensor, torch.Tensor]:
        """The residual stream after ``h += delta`` (in place, when given) and its RMS norm."""
        _rows(h)
        if delta is not None:
            _rows(delta)
        out = torch.empty_like(h)
        self._add_rms_norm(h=h.data_ptr(), delta=_ptr_of(delta), rows=h.shape[0], cols=h.shape[1], weight=weight.data_ptr(),
                           eps=eps, out=out.data_ptr())
        return h, out

    def rotary(self, x: torch.Tensor, heads: int, head_dim: int, cos: torch.Tensor, sin: torch.Tensor) -> None:
        """Rotary embedding in place on the first ``heads`` heads of each row of ``x`` ([T, width], unit
        stride); ``cos``/``sin``: [T, head_dim] rows, sin signed as in :class:`app.engine.lean_llama.LeanLlama`."""
        if x.dtype != torch.float32 or x.stride(-1) != 1 or x.shape[1] < heads * head_dim:
            raise ValueError("rotary needs fp32 rows holding the rotated heads first")
        if not (cos.is_contiguous() and sin.is_contiguous()):
            raise ValueError("rotary needs contiguous cos/sin rows")
        self._rotary(x=x.data_ptr(), rows=x.shape[0], row_stride=x.stride(0), heads=heads, head_dim=head_dim,
                     cos=cos.data_ptr(), sin=sin.data_ptr())

    def silu_mul(self, gate_up: torch.Tensor) -> torch.Tensor:
        """``silu(gate) * up`` of rows holding gate then up."""
        _rows(gate_up)
        out = torch.empty(gate_up.shape[0], gate_up.shape[1] // 2, dtype=torch.float32)
        self._silu_mul(gate_up=gate_up.data_ptr(), rows=gate_up.shape[0], width=out.shape[1], out=out.data_ptr())
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
        self._attention[kv_cache.dtype](q=q.data_ptr(), q_stride=q.stride(0), rows=rows, q_heads=q_heads, kv_heads=kv_heads,
                                        head_dim=head_dim, cache=kv_cache.data_ptr(), slots=slots.data_ptr(), width=width,
                                        lengths=lengths.data_ptr(), scale=scale, out=out.data_ptr())


@functools.cache
def load() -> CpuKernels | None:
    """The kernels, or None where they cannot run (no AVX2/FMA/F16C, no C++ compiler, a failed build)."""
    flags = compiler_flags()
    kernels = build(tuple(flags))
    if kernels is None and AMX_FLAGS[-1] in flags:  # a compiler older than AMX (GCC 10 and before)
        log.warning("the kernels did not build with AMX: building them without it (prefills without tiles)")
        return build(without_amx(flags))
    if kernels is not None and AMX_FLAGS[-1] in flags and not kernels.tile_min_rows:
        log.warning("Linux refused this process the AMX tile state (arch_prctl): prefills run without tiles")
    return kernels


@functools.cache
def build(flags: tuple[str, ...]) -> CpuKernels | None:
    """The kernels compiled with ``flags`` (the tests also build the plain AVX2 variant on a VNNI CPU)."""
    if not {"avx2", "fma", "f16c"} <= cpu_flags():
        return None
    source = SOURCE.read_text()  # one read: the library is built from it and bound by its prototypes
    key = hashlib.sha256((source + " ".join(flags)).encode()).hexdigest()[:16]
    library = cache_home() / "voicechat" / "kernels" / f"cpu_kernels-{key}.so"
    if not library.exists() and not _compile(source, flags, library):
        return None
    return CpuKernels(ctypes.CDLL(str(library)), prototypes(source))


def _compile(source: str, flags: tuple[str, ...], library: Path) -> bool:
    """Compile the kernels into ``library``; a machine that has the library (an image built with them) needs no
    compiler."""
    compiler = os.environ.get("CXX") or shutil.which("c++") or shutil.which("g++")
    if compiler is None:
        log.warning("no C++ compiler found: the engine runs without its CPU kernels (fp32 weights, torch ops)")
        return False
    library.parent.mkdir(parents=True, exist_ok=True)
    log.info("compiling the engine's CPU kernels (once per machine) into %s", library)
    with tempfile.TemporaryDirectory(dir=library.parent) as tmp:
        built = Path(tmp) / library.name
        try:
            done = subprocess.run([compiler, *flags, "-x", "c++", "-", "-o", str(built)], input=source,
                                  capture_output=True, text=True)
        except OSError as error:
            log.warning("the C++ compiler %s could not run (%s): the engine runs without its CPU kernels", compiler, error)
            return False
        if done.returncode != 0:
            log.warning("the engine's CPU kernels did not compile with %s:\n%s", " ".join(flags), done.stderr[-2000:])
            return False
        built.replace(library)
    return True
