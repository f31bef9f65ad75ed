"""4- and 8-bit weights (app/kernels/quantize.py) and the kernels that read them packed, against the
dequantized weights through torch's own matmul."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F

from app.kernels import cpu_kernels
from app.kernels.linear import Linear
from app.kernels.quantize import EXACT_4BIT, dequantize, quantize, round_activations

kernels = cpu_kernels.load()
needs_kernels = pytest.mark.skipif(kernels is None, reason="the CPU kernels need an x86-64 CPU with AVX2/FMA and a C++ compiler")
needs_tiles = pytest.mark.skipif(kernels is None or not kernels.tile_min_rows,
                                 reason="the tile path needs a CPU with AMX (amx_bf16, avx512_bf16) and a compiler for it")


def kernel_reference(x: torch.Tensor, layer: Linear, bias: torch.Tensor | None) -> torch.Tensor:
    """What the kernels compute: x rounded to int8 per group times the dequantized W in fp32 sums, or, for as many
    rows as the AMX tiles take, x and the dequantized W each rounded to bf16."""
    weight = dequantize(layer.quantized)
    if kernels.tile_min_rows and x.shape[0] >= kernels.tile_min_rows:
        return F.linear(x.bfloat16().float(), weight.bfloat16().float(), bias)
    return F.linear(round_activations(x), weight, bias)


def _q4_grid_weight(rows: int, inputs: int, seed: int = 0) -> torch.Tensor:
    """A weight as a 4-bit GGUF block holds it (32-input groups, affine grid), stored in bf16 as the
    prepared checkpoints hold it."""
    g = torch.Generator().manual_seed(seed)
    q = torch.randint(0, 16, (rows, inputs // 32, 32), generator=g).float()
    q[..., 0], q[..., 1] = 0, 15  # both ends used, as a fitted block's grid is
    scale = torch.rand(rows, inputs // 32, 1, generator=g) * 0.01 + 0.001
    low = -8 * scale + torch.randn(rows, inputs // 32, 1, generator=g) * 0.001
    return (q * scale + low).view(rows, inputs).to(torch.bfloat16)


@needs_kernels
@pytest.mark.parametrize("bits", [4, 8])
@pytest.mark.parametrize("rows", [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 17, 25, 40, 64])  # each tile size, tiles + rest
def test_quantized_linear_equals_fp32_matmul_over_the_dequantized_weight(bits, rows):
    torch.manual_seed(rows)
    weight = torch.randn(1000, 96) * 0.05  # N not a multiple of 16
    bias = torch.randn(1000)
    layer = Linear(weight, bias, bits=bits)
    assert layer.quantized is not None and layer.weight_format == f"q{bits}"
    x = torch.randn(rows, 96)
    x[0, :32] = 0  # a group of zeros rounds to zeros
    torch.testing.assert_close(layer(x), kernel_reference(x, layer, bias), rtol=1e-5, atol=1e-4)
    # the int8 rounding of the inputs costs little against the exact product
    exact = F.linear(x, dequantize(layer.quantized), bias)
    assert (layer(x) - exact).norm() / exact.norm() < 0.01


@needs_tiles
@pytest.mark.parametrize("bits", [4, 8])
@pytest.mark.parametrize("rows", [64, 65, 79, 80, 100])  # pairs of row tiles, a tile alone, rows past the last tile
@pytest.mark.parametrize("inputs", [96, 1024])
def test_prefill_rows_multiply_in_amx_tiles_as_bf16_products_of_the_dequantized_weight(bits, rows, inputs):
    torch.manual_seed(rows + inputs)
    layer = Linear(torch.randn(1000, inputs) * 0.05, torch.randn(1000), bits=bits)  # 63 blocks: the last pair has one
    x = torch.randn(rows, inputs + 100)[:, 50 : 50 + inputs]  # row stride inputs + 100
    expected = F.linear(x.bfloat16().float(), dequantize(layer.quantized).bfloat16().float(), layer.bias[:1000])
    # a weight's bf16 rounding may fall the other way at a tie (w = q * scale + min is one rounding in the kernel)
    torch.testing.assert_close(layer(x), expected, rtol=1e-5, atol=5e-4)
    # closer to the exact product than the int8 rows of the library without tiles
    without_tiles = cpu_kernels.build(cpu_kernels.without_amx(cpu_kernels.compiler_flags()))
    assert without_tiles.tile_min_rows == 0
    exact = F.linear(x, dequantize(layer.quantized), layer.bias[:1000])
    error = (layer(x) - exact).norm() / exact.norm()
    assert error < (without_tiles.linear_quantized(x, layer.quantized, layer.bias) - exact).norm() / exact.norm() < 0.01


def test_a_compiler_without_amx_still_builds_the_kernels(monkeypatch):
    """The AMX flags refused (an old compiler): the library without them is loaded."""
    built = []

    def build(flags):
        built.append(flags)
        return None if any(flag in cpu_kernels.AMX_FLAGS for flag in flags) else "the library without AMX"

    monkeypatch.setattr(cpu_kernels, "build", build)
    monkeypatch.setattr(cpu_kernels, "compiler_flags", lambda: cpu_kernels.FLAGS + cpu_kernels.VNNI_FLAGS + cpu_kernels.AMX_FLAGS)
    cpu_kernels.load.cache_clear()
    try:
        assert cpu_kernels.load() == "the library without AMX"
    finally:
        cpu_kernels.load.cache_clear()
    assert built == [tuple(cpu_kernels.FLAGS + cpu_kernels.VNNI_FLAGS + cpu_kernels.AMX_FLAGS),
                     tuple(cpu_kernels.FLAGS + cpu_kernels.VNNI_FLAGS)]


@needs_kernels
@pytest.mark.parametrize("bits", [4, 8])
def test_quantized_linear_takes_wider_rows_leading_dims_and_no_rows(bits):
    weight = torch.randn(48, 64)
    layer = Linear(weight, bits=bits)
    reference = dequantize(layer.quantized)
    x = torch.randn(5, 100)[:, 10:74]  # row stride 100
    torch.testing.assert_close(layer(x), F.linear(round_activations(x), reference), rtol=1e-5, atol=1e-4)
    for shape in [(0, 64), (2, 3, 64)]:
        x = torch.randn(shape)
        expected = F.linear(round_activations(x.reshape(-1, 64)), reference).view(*shape[:-1], 48)
        torch.testing.assert_close(layer(x), expected, rtol=1e-5, atol=1e-4)


@needs_kernels
@pytest.mark.parametrize("bits", [4, 8])
def test_the_plain_avx2_variant_gives_the_same_products(bits):
    """The AVX2 dot products (maddubs + madd), built here even on a CPU whose library takes VNNI."""
    plain = cpu_kernels.build(tuple(cpu_kernels.FLAGS))
    layer = Linear(torch.randn(72, 96) * 0.05, torch.randn(72), bits=bits)
    x = torch.randn(7, 96)  # tiles of 2 rows and one of 1
    expected = F.linear(round_activations(x), dequantize(layer.quantized), layer.bias[:72])
    torch.testing.assert_close(plain.linear_quantized(x, layer.quantized, layer.bias), expected, rtol=1e-5, atol=1e-4)


@needs_kernels
def test_the_avx2_variant_sums_a_group_of_extreme_4_bit_products_without_overflow():
    """Every 4-bit weight at 15 and every input at +-127: the largest sums AVX2 keeps in 16 bits."""
    plain = cpu_kernels.build(tuple(cpu_kernels.FLAGS))
    weight = torch.ones(32, 64)
    weight[:, 0::32] = 0  # each group's grid from 0 to 1: every other weight is q = 15
    layer = Linear(weight, bits=4)
    assert layer.quantized.bits == 4
    x = torch.ones(3, 64)
    x[1] = -1
    x[2, 32:] = -1
    expected = F.linear(round_activations(x), dequantize(layer.quantized))
    torch.testing.assert_close(plain.linear_quantized(x, layer.quantized, None), expected, rtol=1e-5, atol=1e-4)
    assert expected[0, 0] == pytest.approx(62, rel=1e-3)


@needs_kernels
def test_8_bit_weights_and_inputs_at_both_ends_of_their_range_sum_exactly():
    """AVX-512 takes 8-bit weights as q + 128 and takes 128 x the inputs' sum off again: with every weight
    and input at +-127 that offset is as large as the products, and must still come off exactly."""
    weight = torch.ones(32, 128)
    weight[:, 1::2] = -1
    weight[16:, :64] *= -1
    layer = Linear(weight, bits=8)
    assert layer.quantized.bits == 8
    x = torch.ones(9, 128)
    x[1::2] *= -1
    x[2, ::2] = -1
    expected = F.linear(round_activations(x), dequantize(layer.quantized))
    torch.testing.assert_close(layer(x), expected, rtol=1e-5, atol=1e-4)
    assert expected[2, 0] == pytest.approx(-128, rel=1e-3)  # every product at -127 x 127


@needs_kernels
def test_bf16_weight_under_fp32_compute_goes_to_the_kernels_as_it_is():
    weight = torch.randn(40, 64).to(torch.bfloat16)
    layer = Linear(weight, compute_dtype=torch.float32)
    assert layer.weight_format == "bfloat16" and layer.kernel is not None
    x = torch.randn(3, 64)
    torch.testing.assert_close(layer(x), F.linear(x, weight.float()), rtol=1e-5, atol=1e-4)


def test_a_weight_from_4_bit_blocks_packs_back_to_its_own_values():
    weight = _q4_grid_weight(64, 256)
    packed = quantize(weight)  # 'auto': 4 bits, since it holds there
    assert packed.bits == 4
    error = (dequantize(packed) - weight.float()).norm() / weight.float().norm()
    assert error < EXACT_4BIT / 2


def test_a_finer_weight_is_kept_at_8_bits_and_loses_little():
    weight = torch.randn(64, 256)
    packed = quantize(weight)
    assert packed.bits == 8
    assert (dequantize(packed) - weight).norm() / weight.norm() < 0.01
    four = quantize(weight, 4)
    assert (dequantize(four) - weight).norm() / weight.norm() > EXACT_4BIT  # what 4 bits would have cost


def test_record_sizes_are_the_bytes_streamed():
    weight = torch.randn(100, 64)  # 7 blocks of 16 columns, 2 groups
    assert quantize(weight, 4).nbytes == 7 * 2 * (64 + 32 * 8)
    assert quantize(weight, 8).nbytes == 7 * 2 * (32 + 32 * 16)


def test_constant_groups_and_zero_weights_survive():
    weight = torch.zeros(16, 64)
    weight[3] = 0.25
    torch.testing.assert_close(dequantize(quantize(weight, 4)), weight, rtol=0, atol=0)  # min = 0.25, scale 0
    torch.testing.assert_close(dequantize(quantize(weight, 8)), weight, rtol=1e-3, atol=0)  # 127 x an fp16 scale


def test_inputs_not_a_multiple_of_32_stay_unquantized():
    layer = Linear(torch.randn(16, 40).to(torch.bfloat16).float(), bits=4)
    assert layer.quantized is None
    with pytest.raises(ValueError, match="multiple of the group size"):
        quantize(torch.randn(16, 40), 4)
