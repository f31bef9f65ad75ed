"""The lean forward's linear layers: the bf16-weight AVX2 kernel against torch's own matmul."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F

from app.engine.linear import Linear, bf16_kernel

needs_kernel = pytest.mark.skipif(bf16_kernel() is None, reason="the bf16-weight kernel needs an x86-64 CPU with AVX2/FMA and a C++ compiler")


@needs_kernel
@pytest.mark.parametrize("rows", [1, 2, 3, 4, 5, 6, 7, 8, 13, 64])
def test_bf16_kernel_equals_fp32_matmul_over_the_same_weights(rows):
    torch.manual_seed(rows)
    weight = torch.randn(1000, 577).to(torch.bfloat16).float()  # exact in bf16; N and K not multiples of 16
    bias = torch.randn(1000)
    x = torch.randn(rows, 577)
    layer = Linear(weight, bias)
    assert layer.kernel is not None and layer.weight_dtype == torch.bfloat16
    torch.testing.assert_close(layer(x), F.linear(x, weight, bias), rtol=1e-5, atol=2e-4)


@needs_kernel
def test_bf16_kernel_reads_rows_of_a_wider_tensor():
    weight = torch.randn(48, 64).to(torch.bfloat16).float()
    wide = torch.randn(5, 100)
    x = wide[:, 10:74]  # row stride 100
    torch.testing.assert_close(Linear(weight)(x), F.linear(x, weight), rtol=1e-5, atol=1e-4)


def test_weights_not_exact_in_bf16_stay_in_fp32():
    weight = torch.randn(32, 64)  # full fp32 mantissas: bf16 would change them
    layer = Linear(weight)
    assert layer.kernel is None and layer.weight_dtype == torch.float32
    x = torch.randn(3, 64)
    torch.testing.assert_close(layer(x), F.linear(x, weight), rtol=1e-5, atol=1e-5)


def test_bf16_weights_off_keeps_fp32_copies():
    weight = torch.randn(32, 64).to(torch.bfloat16).float()
    layer = Linear(weight, bf16_weights=False)
    assert layer.kernel is None and layer.weight_dtype == torch.float32
    x = torch.randn(8, 64)
    torch.testing.assert_close(layer(x), F.linear(x, weight), rtol=1e-5, atol=1e-5)
