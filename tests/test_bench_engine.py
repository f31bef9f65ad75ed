"""The engine benchmark's own arithmetic: model sizes from the real config, the roofline, padding."""

from __future__ import annotations

from dataclasses import replace

import pytest
import torch
from transformers import AutoModelForCausalLM

from app.bench.hf_baselines import left_padded
from app.bench.roofline import (
    MachineLimits,
    ModelShape,
    decode_step_seconds,
    decode_tokens_per_s_limit,
    last_level_cache_bytes,
    memory_read_rate,
)


@pytest.fixture(scope="module")
def shape(prepared) -> ModelShape:
    model = AutoModelForCausalLM.from_pretrained(str(prepared.llm_dir), dtype=torch.bfloat16)
    return ModelShape.of(model)


def test_shape_of_the_packaged_model(shape):
    # SmolLM2-135M: 30 layers x (keys + values) x 3 KV heads x 64 dims x 2 bytes; the tied embedding counted once
    assert shape.kv_bytes_per_token == 30 * 2 * 3 * 64 * 2
    assert 134_000_000 < shape.parameters < 135_000_000
    assert shape.weight_bytes == 2 * shape.parameters and shape.layers == 30 and shape.query_width == 576


def test_roofline_matches_the_hand_computed_limit(shape):
    limits = MachineLimits(read_bytes_per_s=32e9, copy_bytes_per_s=32e9, matmul_flops_per_s={"bfloat16": 383e9})
    # memory-bound at batch 8: (2 P + 8 L 23040 bytes) / 32 GB/s per step
    expected_step = (2 * shape.parameters + 8 * 128 * 23040) / 32e9
    assert decode_step_seconds(shape, 8, 128, 32e9, 383e9) == pytest.approx(expected_step)
    assert decode_tokens_per_s_limit(shape, 8, 128, limits) == pytest.approx(8 / expected_step)
    assert 800 < 8 / expected_step < 950  # the design notes' ~875 tok/s
    # compute-bound once the batch is large enough
    big = decode_step_seconds(shape, 512, 128, 32e9, 383e9)
    assert big == pytest.approx(512 * (2 * shape.parameters + 4 * 30 * 576 * 128) / 383e9)


def test_the_limit_counts_weights_as_stored_and_the_best_peak_of_any_dtype(shape):
    four_bit = replace(shape, weight_bytes=shape.weight_bytes // 4)
    limits = MachineLimits(read_bytes_per_s=20e9, copy_bytes_per_s=20e9,
                           matmul_flops_per_s={"float32": 150e9, "bfloat16": 380e9})
    step = max((four_bit.weight_bytes + 8 * 128 * four_bit.kv_bytes_per_token) / 20e9,
               8 * (2 * shape.parameters + 4 * 30 * 576 * 128) / 380e9)
    assert decode_tokens_per_s_limit(four_bit, 8, 128, limits) == pytest.approx(8 / step)
    assert decode_tokens_per_s_limit(four_bit, 8, 128, limits) > decode_tokens_per_s_limit(shape, 8, 128, limits)


def test_the_read_rate_counts_only_reads_that_outgrow_the_cache(tmp_path):
    for index, size in enumerate(["48K", "2048K", "307200K"]):  # sysfs as an Emerald Rapids guest has it
        (tmp_path / "cache" / f"index{index}").mkdir(parents=True)
        (tmp_path / "cache" / f"index{index}" / "size").write_text(size + "\n")
    cache = last_level_cache_bytes(tmp_path)
    assert cache == 300 * 2**20 and last_level_cache_bytes(tmp_path / "none") == 0
    rates = {"sum_256mib": 41e9, "sum_1024mib": 30e9, "gemv_q4_512mib": 27.5e9}
    sizes = {"sum_256mib": 256 * 2**20, "sum_1024mib": 2**30, "gemv_q4_512mib": 512 * 2**20}
    assert memory_read_rate(rates, sizes, cache) == 30e9
    assert memory_read_rate(rates, sizes, 0) == 41e9  # no cache told: every method counts
    assert memory_read_rate(rates, sizes, 2**31) == 41e9  # every read fits: the best of them still


def test_left_padding_keeps_each_prompt_at_the_right_edge():
    ids, mask = left_padded([[5, 6, 7], [8]], pad_token_id=0, device=torch.device("cpu"))
    assert ids.tolist() == [[5, 6, 7], [0, 0, 8]]
    assert mask.tolist() == [[1, 1, 1], [0, 0, 1]]
