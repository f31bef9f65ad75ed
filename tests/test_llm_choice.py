"""What ``llm_model=auto`` serves: the first packaged model, best first, that this machine decodes at voice speed."""

from __future__ import annotations

import pytest

from app.models import choice


def _choose(monkeypatch: pytest.MonkeyPatch, quantized: bool, gb_per_s: float) -> str:
    monkeypatch.setattr(choice, "_read_rate", lambda: (quantized, gb_per_s * 1e9))
    choice.choose_llm.cache_clear()
    try:
        return choice.choose_llm("cpu")
    finally:
        choice.choose_llm.cache_clear()


def test_a_cpu_reading_4_bit_weights_fast_serves_the_best_model(monkeypatch):
    assert _choose(monkeypatch, True, 30.0) == "qwen2.5-1.5b"  # ~27 decode steps/s


def test_slower_machines_get_the_best_model_they_decode_at_voice_speed(monkeypatch):
    assert _choose(monkeypatch, True, 8.0) == "qwen2.5-0.5b"  # 1.5B: 7 steps/s; 0.5B: 16
    assert _choose(monkeypatch, False, 8.0) == "smollm2-135m"  # bf16 weights without the kernels
    assert _choose(monkeypatch, True, 0.5) == "smollm2-135m"  # nothing reaches it: the smallest


def test_the_real_measurement_runs_and_picks_a_packaged_model():
    choice.choose_llm.cache_clear()
    assert choice.choose_llm("cpu") in choice.CANDIDATES


def test_the_settings_resolve_auto_once_and_keep_a_named_model():
    from app.config import Settings

    assert Settings().llm_model in choice.CANDIDATES
    assert Settings(llm_model="smollm2-135m").llm_model == "smollm2-135m"
