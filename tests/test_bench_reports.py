"""What the speech benchmarks report beside their figures, so an outlier or a miss can be traced."""

from __future__ import annotations

import argparse

from app.bench.report import cpu_times, stolen_share
from app.bench.speech_samples import same_words
from app.bench.voice import UserResult, summarize


def test_the_voice_summary_names_the_slowest_turn_and_its_stages() -> None:
    quick = UserResult(v2v_s=[0.8], turns=[1], server_latency=[{"endpoint_ms": 380.0, "asr_ms": 60.0, "total_ms": 790.0}])
    slow = UserResult(
        v2v_s=[0.9, 4.25],
        turns=[0, 1],
        server_latency=[{"asr_ms": 70.0}, {"endpoint_ms": 381.5, "asr_ms": 3200.0, "llm_first_token_ms": None}],
    )
    summary = summarize([quick, slow], argparse.Namespace(users=2, turn_modes="server_vad", tools="none"))
    assert summary["v2v_slowest_turn"] == "4.250 s (endpoint_ms 381.5, asr_ms 3200)"
    assert summary["v2v_max_s"] == 4.25
    assert summary["v2v_first_turn_max_s"] == 0.9  # the quick user's first turn failed: only its second counts
    assert summary["v2v_later_p95_s"] == round(0.8 + 0.95 * (4.25 - 0.8), 3)


def test_same_words_ignores_case_punctuation_and_digits() -> None:
    assert same_words("Set a timer for ten minutes.", "set a timer for 10 minutes")
    assert not same_words("My favorite color is blue.", "My favorite colors blue.")


def test_the_stolen_share_is_the_steal_ticks_over_all_ticks() -> None:
    before = [100, 0, 50, 800, 0, 0, 0, 50]
    after = [400, 0, 100, 900, 0, 0, 0, 200]  # 600 ticks: 350 ran here, 100 idle, 150 stolen
    assert stolen_share(before, after) == 0.25
    assert stolen_share(after, after) is None  # no time passed
    now = cpu_times()
    assert now is None or (len(now) == 8 and all(value >= 0 for value in now))
