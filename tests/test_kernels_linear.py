"""The linear layers where the 16-bit-weight kernel does not apply (the kernel's own tests: test_kernels.py)."""

from __future__ import annotations

import torch
import torch.nn.functional as F

from app.kernels.linear import Linear


def test_weights_not_exact_in_16_bits_stay_in_fp32():
    weight = torch.randn(32, 64)  # full fp32 mantissas: bf16 or fp16 would change them
    layer = Linear(weight)
    assert layer.kernel is None and layer.weight_dtype == torch.float32
    x = torch.randn(3, 64)
    torch.testing.assert_close(layer(x), F.linear(x, weight), rtol=1e-5, atol=1e-5)


def test_half_weights_off_keeps_fp32_copies():
    weight = torch.randn(32, 64).to(torch.bfloat16).float()
    layer = Linear(weight, half_weights=False)
    assert layer.kernel is None and layer.weight_dtype == torch.float32
    x = torch.randn(8, 64)
    torch.testing.assert_close(layer(x), F.linear(x, weight), rtol=1e-5, atol=1e-5)
