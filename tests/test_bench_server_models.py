"""Benchmarks run against ``--url`` report the models of the server they measured, not the client's settings; ``bench voice
--turn-detection both`` measures the two turn detections side by side in one session; ``--tools page`` declares the
page's tools."""

from __future__ import annotations

import argparse
from collections.abc import Iterator

import pytest

from app.bench import voice
from app.config import Settings
from app.web.server import ServerThread, create_app


@pytest.fixture(scope="module")
def ws_url(settings: Settings, prepared) -> Iterator[str]:
    with ServerThread(create_app(settings, prepared=prepared)) as base_url:
        yield base_url.replace("http://", "ws://") + "/ws"


def test_bench_voice_with_url_reports_the_servers_models(ws_url: str, settings: Settings, tmp_path) -> None:
    client = settings.model_copy(update={"llm_model": "qwen2.5-1.5b", "asr_model": "base", "tts_backend": "espeak"})
    args = argparse.Namespace(url=ws_url, users=1, turns=2, text_turns=1, seed=0, turn_modes="both", tools="none",
                              json_path=str(tmp_path / "v.json"))
    summary = voice.run(args, client)
    assert summary["errors"] == 0 and summary["voice_turns"] == 2
    for mode in ("server_vad", "semantic_vad"):  # one turn each, in one session
        assert summary[f"{mode}_v2v_p50_s"] > 0 and summary[f"{mode}_server_endpoint_p50_ms"] > 0
    assert summary["llm_model"] == settings.llm_model == "smollm2-135m"
    assert summary["asr_model"] == f"whisper-{settings.whisper_model}"
    assert summary["tts_model"] == "piper-joe-medium"
    assert summary["server"] == ws_url
    assert "vad_silence_ms" not in summary, "a remote server's settings are not known to the client"


def test_bench_voice_by_default_measures_the_turn_detection_a_new_session_gets(ws_url: str, settings: Settings,
                                                                                tmp_path) -> None:
    args = argparse.Namespace(url=ws_url, users=1, turns=1, text_turns=0, seed=0, turn_modes="default", tools="none",
                              json_path=str(tmp_path / "v.json"))
    summary = voice.run(args, settings)
    assert summary["errors"] == 0 and summary["voice_turns"] == 1
    assert summary["turn_detection"] == "semantic_vad"  # turn_detection auto, on the local engine


def test_bench_voice_with_the_page_tools_declared(tools_server_url: str, settings: Settings, tmp_path) -> None:
    """``--tools page``: every session declares the page's clock and timer, as the page does; the spoken questions
    (facts) are answered in words, heard as without tools."""
    url = tools_server_url.replace("http://", "ws://") + "/ws"
    args = argparse.Namespace(url=url, users=1, turns=2, text_turns=1, seed=0, turn_modes="default", tools="page",
                              json_path=str(tmp_path / "v.json"))
    summary = voice.run(args, settings)
    assert summary["errors"] == 0 and summary["voice_turns"] == 2 and summary["text_turns"] == 1
    assert summary["tools"] == "get_current_time,set_timer" and summary["llm_model"] == "qwen2.5-1.5b"
