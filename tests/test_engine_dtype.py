"""Which precision the LLM computes in when ``llm_dtype`` is 'auto', and how the device setting prepares a GPU."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch
from transformers import GPT2Config, LlamaConfig

import app.device
from app.engine import model_runner
from app.engine.model_runner import compute_dtype
from app.kernels import cpu_kernels

CPU = torch.device("cpu")
BF16_CPU = frozenset({"avx2", "fma", "f16c", "avx512_bf16"})


def checkpoint(folder: Path, dtype: str, *, lean_family: bool = True) -> Path:
    """A model folder's config.json, which is all the choice reads."""
    if lean_family:
        config = LlamaConfig(hidden_size=64, intermediate_size=128, num_hidden_layers=1, num_attention_heads=2)
    else:
        config = GPT2Config(n_embd=64, n_layer=1, n_head=2)
    config.dtype = dtype
    folder.mkdir()
    config.to_json_file(str(folder / "config.json"))
    return folder


@pytest.fixture
def cpu_with_bf16(monkeypatch: pytest.MonkeyPatch):
    """A CPU with bf16 arithmetic, no AMX, and the CPU kernels built; returns a setter for its flags."""
    def flags(value: frozenset[str]) -> None:
        monkeypatch.setattr(app.device, "cpu_flags", lambda: value)
        monkeypatch.setattr(model_runner, "cpu_flags", lambda: value)

    flags(BF16_CPU)
    monkeypatch.setattr(cpu_kernels, "load", lambda: object())
    return flags


def test_a_16_bit_checkpoint_computes_in_fp32_where_the_kernels_run(tmp_path, cpu_with_bf16) -> None:
    model = checkpoint(tmp_path / "bf16", "bfloat16")
    assert compute_dtype("auto", model, CPU, lean=True, half_weights=True) == torch.float32
    assert compute_dtype("bfloat16", model, CPU, lean=True, half_weights=True) == torch.bfloat16


def test_without_the_kernels_lean_forward_or_16_bit_weights_bf16_stays(tmp_path, cpu_with_bf16, monkeypatch) -> None:
    bf16 = checkpoint(tmp_path / "bf16", "bfloat16")
    assert compute_dtype("auto", bf16, CPU, lean=False, half_weights=True) == torch.bfloat16
    assert compute_dtype("auto", bf16, CPU, lean=True, half_weights=False) == torch.bfloat16
    fp32 = checkpoint(tmp_path / "fp32", "float32")
    assert compute_dtype("auto", fp32, CPU, lean=True, half_weights=True) == torch.bfloat16
    not_lean = checkpoint(tmp_path / "gpt2", "bfloat16", lean_family=False)
    assert compute_dtype("auto", not_lean, CPU, lean=True, half_weights=True) == torch.bfloat16
    cpu_with_bf16(BF16_CPU | {"amx_bf16"})
    assert compute_dtype("auto", bf16, CPU, lean=True, half_weights=True) == torch.bfloat16
    cpu_with_bf16(BF16_CPU)
    monkeypatch.setattr(cpu_kernels, "load", lambda: None)
    assert compute_dtype("auto", bf16, CPU, lean=True, half_weights=True) == torch.bfloat16


def test_a_cpu_without_bf16_computes_in_fp32_as_before(tmp_path, cpu_with_bf16) -> None:
    cpu_with_bf16(frozenset({"avx2", "fma", "f16c"}))
    fp32 = checkpoint(tmp_path / "fp32", "float32")
    assert compute_dtype("auto", fp32, CPU, lean=True, half_weights=True) == torch.float32


@pytest.fixture
def cudnn_attention_restored():
    """torch's process-wide cuDNN attention switch, as it was before the test."""
    before = torch.backends.cuda.cudnn_sdp_enabled()
    yield
    torch.backends.cuda.enable_cudnn_sdp(before)


def test_a_cuda_device_keeps_attention_off_cudnn_and_the_cpu_leaves_it(cudnn_attention_restored) -> None:
    # cuDNN's attention builds a plan per key length: every decode step would build one
    torch.backends.cuda.enable_cudnn_sdp(True)
    assert app.device.working_device("cpu") == CPU
    assert torch.backends.cuda.cudnn_sdp_enabled()
    assert app.device.working_device("cuda:0") == torch.device("cuda:0")  # no GPU needed to name one
    assert not torch.backends.cuda.cudnn_sdp_enabled()
