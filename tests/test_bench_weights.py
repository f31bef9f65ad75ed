"""``voicechat bench weights`` end to end on the packaged model: both settings measured, side by side."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.kernels import cpu_kernels


@pytest.mark.skipif(cpu_kernels.load() is None, reason="4/8-bit weights need the CPU kernels")
def test_weights_benchmark_reports_each_setting_and_the_ratios(settings, prepared, tmp_path: Path):
    from app.cli import main

    path = tmp_path / "weights.json"
    argv = ["bench", "weights", "--tokens", "6", "--batches", "1,2", "--repeats", "1", "--json", str(path),
            "--model-dir", str(settings.model_dir), "--llm-model", settings.llm_model, "--tile-prefills", "70"]  # fmt: skip
    assert main(argv) == 0
    data = json.loads(path.read_text())
    assert data["weights_auto_format"] in ("q4", "q4+q8") and data["weights_16_format"] == "bfloat16"
    assert data["weights_auto_mib_per_step"] < 0.5 * data["weights_16_mib_per_step"]
    for key in ("decode_speedup_auto_vs_16_b1", "decode_speedup_auto_vs_16_b2", "prefill_speedup_auto_vs_16"):
        assert data[key] > 0
    assert 0 <= data["greedy_prefix_agreeing_auto_vs_16"] <= 6
    assert data["prefill_auto_cached_tokens"] == data["prefill_16_cached_tokens"] == 0  # the whole prompt computed
    assert data["machine_cpu_flags"]
    assert 0 <= data["machine_cpu_stolen"] <= 1 and data["machine_load_before"] >= 0  # how shared the machine was
    if cpu_kernels.load().tile_min_rows:  # a CPU with AMX: the same prefill with the tiles and without
        assert data["prefill_70_tiles_s"] > 0 and data["prefill_70_no_tiles_s"] > 0
        assert data["prefill_70_tiles_speedup"] > 0
        assert data["prefill_tiles_cached_tokens"] == 0  # every prompt prefilled whole
    else:
        assert not any(key.startswith("prefill_70_") for key in data)
