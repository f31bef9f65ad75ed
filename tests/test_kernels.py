"""The engine's CPU kernels (app/kernels/cpu_kernels.cpp) against the torch ops they replace."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F

from app.kernels import cpu_kernels
from app.kernels.linear import Linear
from app.engine.lean_llama import TorchOps

kernels = cpu_kernels.load()
pytestmark = pytest.mark.skipif(kernels is None, reason="the CPU kernels need an x86-64 CPU with AVX2/FMA and a C++ compiler")


@pytest.mark.parametrize("half", [torch.bfloat16, torch.float16])
@pytest.mark.parametrize("rows", [1, 2, 3, 4, 5, 6, 7, 8, 13, 64])
def test_16_bit_weight_linear_equals_fp32_matmul_over_the_same_weights(rows, half):
    torch.manual_seed(rows)
    weight = torch.randn(1000, 577).to(half).float()  # exact in 16 bits; N and K not multiples of 16
    bias = torch.randn(1000)
    x = torch.randn(rows, 577)
    layer = Linear(weight, bias)
    assert layer.kernel is not None and layer.weight_dtype == half
    torch.testing.assert_close(layer(x), F.linear(x, weight, bias), rtol=1e-5, atol=2e-4)


@pytest.mark.parametrize("shape", [(0, 64), (2, 3, 64), (2, 0, 64)])
def test_16_bit_weight_linear_takes_any_leading_dims_even_no_rows(shape):
    weight = torch.randn(48, 64).to(torch.float16).float()  # a prefill chunk with no sampled row calls it with 0
    x = torch.randn(shape)
    torch.testing.assert_close(Linear(weight)(x), F.linear(x, weight), rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("half", [torch.bfloat16, torch.float16])
def test_16_bit_weight_linear_reads_rows_of_a_wider_tensor(half):
    weight = torch.randn(48, 64).to(half).float()
    x = torch.randn(5, 100)[:, 10:74]  # row stride 100
    torch.testing.assert_close(Linear(weight)(x), F.linear(x, weight), rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("rows", [3, 300])  # one thread, then rows shared among threads
def test_add_rms_norm_matches_torch(rows):
    h, delta, weight = torch.randn(rows, 576), torch.randn(rows, 576), torch.rand(576)
    want_h, want = TorchOps.add_rms_norm(h.clone(), delta, weight, 1e-5)
    got_h, got = kernels.add_rms_norm(h, delta, weight, 1e-5)
    torch.testing.assert_close(got_h, want_h)
    torch.testing.assert_close(got, want)
    torch.testing.assert_close(kernels.add_rms_norm(h, None, weight, 1e-5)[1], TorchOps.add_rms_norm(h, None, weight, 1e-5)[1])


@pytest.mark.parametrize("rows", [2, 200])
def test_rotary_matches_torch_and_leaves_other_heads_alone(rows):
    heads, head_dim = 12, 64
    x = torch.randn(rows, 15 * head_dim)
    cos, sin = torch.randn(rows, head_dim), torch.randn(rows, head_dim)
    want = x.clone()
    TorchOps.rotary(want, heads, head_dim, cos, sin)
    kernels.rotary(x, heads, head_dim, cos, sin)
    torch.testing.assert_close(x, want)


@pytest.mark.parametrize("rows", [2, 100])
def test_silu_mul_matches_torch(rows):
    gate_up = torch.randn(rows, 2 * 1536)
    torch.testing.assert_close(kernels.silu_mul(gate_up), TorchOps.silu_mul(gate_up))


@pytest.mark.parametrize("cache_dtype", [torch.float32, torch.bfloat16])
@pytest.mark.parametrize(("head_dim", "group"), [(64, 3), (32, 1), (128, 4)])
def test_decode_attention_reads_the_paged_cache_like_a_gather_and_sdpa(head_dim, group, cache_dtype):
    torch.manual_seed(head_dim)
    rows, kv_heads, slots = 4, 3, 200
    q_heads = kv_heads * group
    cache = torch.randn(slots, 2, kv_heads, head_dim).to(cache_dtype)
    lengths = torch.tensor([5, 37, 1, 20])
    width = int(lengths.max())
    table = torch.stack([torch.randperm(slots)[:width] for _ in range(rows)])  # scattered slots, as blocks are
    qkv = torch.randn(rows, q_heads * head_dim + 2 * kv_heads * head_dim)
    q = qkv[:, : q_heads * head_dim].view(rows, q_heads, head_dim)
    out = torch.empty(rows, q_heads, head_dim)
    kernels.decode_attention(q, cache, table.reshape(-1), width, lengths, 0.125, out)
    for r in range(rows):
        context = cache[table[r, : lengths[r]]].float()  # [n, 2, kv_heads, head_dim]
        keys = context[:, 0].repeat_interleave(group, dim=1).transpose(0, 1)  # [q_heads, n, head_dim]
        values = context[:, 1].repeat_interleave(group, dim=1).transpose(0, 1)
        want = F.scaled_dot_product_attention(q[r][:, None], keys, values, scale=0.125)[:, 0]
        torch.testing.assert_close(out[r], want, rtol=1e-5, atol=1e-5)
