"""What ``llm_model=auto`` serves: the first packaged model, best first, that this machine decodes at voice speed."""

from __future__ import annotations

import pytest

from app.models import choice


@pytest.fixture(autouse=True)
def own_cache(monkeypatch, tmp_path):
    """The best rates measured are recorded in a cache folder of the test's own."""
    monkeypatch.setattr(choice, "cache_home", lambda: tmp_path)
    return tmp_path


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
    assert _choose(monkeypatch, True, 0.5) == "smollm2-135m"  # nothing reaches it: the smallest
    assert _choose(monkeypatch, True, 8.0) == "qwen2.5-0.5b"  # 1.5B: 7 steps/s; 0.5B: 16
    assert _choose(monkeypatch, False, 8.0) == "smollm2-135m"  # bf16 weights without the kernels


def test_a_slow_moment_at_start_up_keeps_the_model_this_machine_served(monkeypatch, own_cache):
    assert _choose(monkeypatch, True, 18.0) == "qwen2.5-1.5b"
    assert _choose(monkeypatch, True, 8.0) == "qwen2.5-1.5b"  # a busy neighbour: the best rate measured holds
    assert "18.0 GB/s (best measured; 8.0 now)" in choice.reasons["qwen2.5-1.5b"]
    assert _choose(monkeypatch, False, 8.0) == "smollm2-135m"  # bf16 weights: rates of their own
    (own_cache / "voicechat" / "cpu-read-rates.json").write_text("not json")
    assert _choose(monkeypatch, True, 8.0) == "qwen2.5-0.5b"  # an unreadable record: this start's rate
    assert _choose(monkeypatch, True, 8.0) == "qwen2.5-0.5b"  # ... which replaced it
    record = own_cache / "voicechat" / "cpu-read-rates.json"
    record.write_text(record.read_text().replace("8000000000.0", '"fast"'))
    assert '"fast"' in record.read_text()
    assert _choose(monkeypatch, True, 8.0) == "qwen2.5-0.5b"  # a value that is no number counts as none


def test_the_real_measurement_runs_and_picks_a_packaged_model():
    choice.choose_llm.cache_clear()
    assert choice.choose_llm("cpu") in choice.CANDIDATES


def test_the_settings_resolve_auto_once_and_keep_a_named_model():
    from app.config import Settings

    assert Settings().llm_model in choice.CANDIDATES
    assert Settings(llm_model="smollm2-135m").llm_model == "smollm2-135m"
