"""Settings: every one documented in the README table, read from the environment and from flags."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.cli import build_parser, _settings_from
from app.config import Settings, _data_home, cache_home

README = Path(__file__).resolve().parent.parent / "README.md"


def settings_table() -> str:
    """The README's configuration table, rendered from the Settings fields."""
    rows = ["| environment variable | flag | default | meaning |", "|---|---|---|---|"]
    for name, field in Settings.model_fields.items():
        default = field.default
        if isinstance(default, Path):  # as on a machine without XDG_* overrides
            default = str(default).replace(str(cache_home()), "~/.cache").replace(str(_data_home()), "~/.local/share")
            default = default.replace(str(Path.home()), "~")
        shown = str(default).replace("|", "\\|").replace("\n", " ")
        rows.append(
            f"| `VOICECHAT_{name.upper()}` | `--{name.replace('_', '-')}` | `{shown}` | {field.description} |"
        )
    return "\n".join(rows)


def test_readme_documents_every_setting() -> None:
    text = README.read_text()
    match = re.search(r"<!-- settings-table:start -->\n(.*?)\n<!-- settings-table:end -->", text, re.S)
    assert match, "README lacks the settings-table markers"
    assert match.group(1) == settings_table(), (
        "README settings table is out of date; replace it with:\n" + settings_table()
    )


def test_every_setting_has_a_description() -> None:
    assert all(field.description for field in Settings.model_fields.values())


def test_environment_and_flags_set_values_and_flags_win(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VOICECHAT_PORT", "9123")
    monkeypatch.setenv("VOICECHAT_MAX_SESSIONS", "5")
    args = build_parser().parse_args(["serve", "--max-sessions", "7", "--no-speculative-asr"])
    settings = _settings_from(args)
    assert settings.port == 9123
    assert settings.max_sessions == 7
    assert settings.speculative_asr is False


def test_a_bad_value_names_the_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VOICECHAT_PORT", "eighty")
    with pytest.raises(ValueError, match="port"):
        Settings()


def test_cli_reports_a_bad_setting_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    from app.cli import main

    assert main(["serve", "--port", "eighty"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "VOICECHAT_PORT" in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("model", "language", "device", "loaded"),
    [("auto", "en", "cpu", "tiny.en"), ("auto", "en", "cuda", "base"), ("auto", "de", "cpu", "base"),
     ("auto", "auto", "cpu", "base"), ("tiny.en", "en", "cuda", "tiny.en"), ("base", "en", "cpu", "base"),
     ("/models/small.pt", "fr", "cpu", "/models/small.pt")],
)
def test_the_whisper_model_follows_the_language_and_device_unless_named(model: str, language: str, device: str,
                                                                         loaded: str) -> None:
    settings = Settings(asr_model=model, asr_language=language, device=device, llm_model="smollm2-135m")
    assert settings.whisper_model == loaded


@pytest.mark.parametrize(
    ("model", "choice", "allowed"),
    [("qwen2.5-1.5b", "auto", True), ("qwen2.5-0.5b", "auto", False), ("qwen2.5-0.5b", "on", True),
     ("qwen2.5-1.5b", "off", False), ("/models/my-llama", "auto", True)],
)
def test_tools_are_allowed_by_the_packaged_models_own_choice_unless_set(model: str, choice: str, allowed: bool) -> None:
    # the 0.5B called the page's tools for most arithmetic and remarks (bench quality --tools page 0.49, 0.77 without)
    assert Settings(llm_model=model, llm_tools=choice).tools_allowed is allowed


@pytest.mark.parametrize(
    ("model", "bits", "packed"),
    [("qwen2.5-1.5b", "auto", "4"), ("qwen2.5-1.5b", "8", "8"), ("qwen2.5-0.5b", "auto", "auto"),
     ("smollm2-135m", "auto", "auto"), ("/models/my-llama", "auto", "auto"), ("/models/my-llama", "16", "16")],
)
def test_auto_weight_bits_are_the_packaged_models_own_choice_else_each_weights(model: str, bits: str, packed: str) -> None:
    # the 1.5B measured as right at 4 bits everywhere (bench quality) and faster under load (bench voice)
    assert Settings(llm_model=model, llm_weight_bits=bits).weight_bits == packed
