"""The CPU kernels' ctypes bindings come from the C++ source: a signature that drifts from the calls is an error."""

from __future__ import annotations

import ctypes
import os
import re
import subprocess
import sys

import pytest
import torch

from app.kernels import cpu_kernels
from app.kernels.cpu_kernels import CpuKernels, KernelSignatureError, prototypes
from app.kernels.quantize import quantize

SOURCE = cpu_kernels.SOURCE.read_text()
needs_kernels = pytest.mark.skipif(cpu_kernels.load() is None, reason="the CPU kernels need an x86-64 CPU with AVX2/FMA")


def drifted(name: str, old: str, new: str) -> str:
    """The source with one edit inside the signature of kernel ``name``."""
    signature = re.search(r'extern "C" void ' + name + r"\([^)]*\)", SOURCE)[0]
    assert old in signature
    return SOURCE.replace(signature, signature.replace(old, new))


def quantized_call(kernels: CpuKernels) -> torch.Tensor:
    weight = quantize(torch.randn(32, 64), 4)
    return kernels.linear_quantized(torch.randn(2, 64), weight, None)


def test_the_source_declares_every_kernel_with_named_typed_parameters():
    found = prototypes(SOURCE)
    assert {"linear_q4_weights", "add_rms_norm", "rotary", "silu_mul", "decode_attention_bf16"} <= found.keys()
    assert found["add_rms_norm"].parameters == (
        ("h", ctypes.c_void_p), ("delta", ctypes.c_void_p), ("rows", ctypes.c_int64), ("cols", ctypes.c_int64),
        ("weight", ctypes.c_void_p), ("eps", ctypes.c_float), ("out", ctypes.c_void_p))


@pytest.mark.parametrize(
    "old, new", [("float eps", "double eps"), ("int64_t rows", "int rows"), ("const float* weight", "const float& weight")]
)
def test_a_parameter_type_the_bindings_cannot_pass_is_an_error(old, new):
    with pytest.raises(KernelSignatureError, match="add_rms_norm"):
        prototypes(drifted("add_rms_norm", old, new))


def test_a_kernel_that_returns_a_value_is_an_error():
    with pytest.raises(KernelSignatureError, match="returns int"):
        prototypes(SOURCE.replace('extern "C" void silu_mul', 'extern "C" int silu_mul'))


@needs_kernels
def test_a_kernel_missing_from_the_source_or_the_library_is_an_error():
    library = cpu_kernels.load().library
    with pytest.raises(KernelSignatureError, match="silu_mul"):
        CpuKernels(library, {n: p for n, p in prototypes(SOURCE).items() if n != "silu_mul"})
    renamed = SOURCE.replace('extern "C" void silu_mul', 'extern "C" void silu_mul_v2')
    with pytest.raises(KernelSignatureError, match="no function silu_mul_v2"):
        CpuKernels(library, prototypes(renamed))


@needs_kernels
@pytest.mark.parametrize("old, new, error", [
    ("float* y, int64_t ldy", "float* y, int64_t ldy, int64_t threads", "'threads' missing"),  # added
    ("float* y, int64_t ldy", "float* y", "takes exactly 8 arguments"),  # dropped
    ("int64_t ldy", "int64_t y_stride", "'y_stride' missing"),  # renamed
])
def test_a_signature_that_drifts_from_the_python_calls_raises_instead_of_calling(old, new, error):
    library = cpu_kernels.load().library
    assert quantized_call(CpuKernels(library, prototypes(SOURCE))).shape == (2, 32)
    with pytest.raises(TypeError, match=error):
        quantized_call(CpuKernels(library, prototypes(drifted("linear_q4_weights", old, new))))


@needs_kernels
def test_a_value_ctypes_cannot_convert_to_the_declared_type_is_refused():
    kernels = CpuKernels(cpu_kernels.load().library, prototypes(drifted("add_rms_norm", "float eps", "int64_t eps")))
    with pytest.raises(ctypes.ArgumentError, match="argument 6: TypeError"):  # eps, a float
        kernels.add_rms_norm(torch.randn(2, 8), None, torch.ones(8), 1e-5)


def test_a_library_built_before_needs_no_compiler(monkeypatch, tmp_path):
    """An image copies the kernels compiled in its build stage into a runtime stage without a compiler."""
    from app.kernels import cpu_kernels

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    flags = tuple(cpu_kernels.FLAGS)
    cpu_kernels.build.cache_clear()
    try:
        assert cpu_kernels.build(flags) is not None  # compiled here, into this cache
        cpu_kernels.build.cache_clear()
        monkeypatch.setenv("CXX", str(tmp_path / "no-such-compiler"))
        assert cpu_kernels.build(flags) is not None  # found, not compiled again
        for library in (tmp_path / "voicechat" / "kernels").glob("*.so"):
            library.unlink()
        cpu_kernels.build.cache_clear()
        assert cpu_kernels.build(flags) is None  # nothing to find and no compiler: the engine runs without them
    finally:
        cpu_kernels.build.cache_clear()


def _probe(isa: str) -> subprocess.CompletedProcess:
    probe = ("import app, torch; from app.device import cpu_flags, cpu_has_fast_bf16; from app.kernels import cpu_kernels;"
             "print(torch.backends.cpu.get_cpu_capability(), cpu_has_fast_bf16(),"
             "sorted({f.split('_')[0] for f in cpu_flags() if f.startswith(('avx512', 'amx'))}),"
             "cpu_kernels.compiler_flags() == cpu_kernels.FLAGS)")
    return subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          env={**os.environ, "VOICECHAT_CPU_ISA": isa})


def test_older_cpu_classes_are_measured_on_a_newer_cpu_with_voicechat_cpu_isa():
    """Under VOICECHAT_CPU_ISA=avx2 torch, oneDNN and the engine's kernels all take their AVX2 paths; avx512 leaves
    out AMX only."""
    assert _probe("avx2").stdout.split() == ["AVX2", "False", "[]", "True"]
    capability, _, *flags = _probe("avx512").stdout.split()
    assert capability in ("AVX512", "AVX2") and "'amx'" not in " ".join(flags)  # AVX2 where the CPU has no AVX-512
    refused = _probe("AVX-2")
    assert refused.returncode != 0 and "VOICECHAT_CPU_ISA='AVX-2': use native, avx2 or avx512" in refused.stderr
