"""Each synthesiser speaks at its declared rate; piper's speech is understood by Whisper."""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path

import jiwer
import numpy as np
import pytest

from app.audio import resample
from app.config import Settings
from app.tts import SynthesisError, create_synthesizer
from app.tts.espeak_backend import EspeakSynthesizer
from app.tts.piper_backend import PiperSynthesizer

SENTENCE = "The quick brown fox jumps over the lazy dog."


def rms(audio: np.ndarray) -> float:
    return float(np.sqrt(np.mean(np.square(audio, dtype=np.float64))))


def assert_speech_like(pieces: list[np.ndarray], rate: int, min_s: float, max_s: float) -> np.ndarray:
    """Float32 mono pieces whose joined length fits ``text`` spoken at ``rate``, and which are not silence."""
    assert pieces and all(p.dtype == np.float32 and p.ndim == 1 for p in pieces)
    audio = np.concatenate(pieces)
    assert min_s <= len(audio) / rate <= max_s
    assert np.abs(audio).max() <= 1.0
    assert rms(audio) > 0.01
    return audio


@pytest.fixture(scope="module")
def piper(prepared) -> PiperSynthesizer:
    return PiperSynthesizer(prepared.piper_model, prepared.piper_config)


def test_piper_speaks_at_the_voice_rate(piper: PiperSynthesizer, prepared) -> None:
    assert piper.sample_rate == json.loads(Path(prepared.piper_config).read_text())["audio"]["sample_rate"] == 22050
    assert_speech_like(list(piper.synthesize(SENTENCE)), piper.sample_rate, 1.0, 5.0)
    assert list(piper.synthesize("  ")) == []


def test_piper_speaks_on_one_thread_while_an_engine_on_the_same_cores_decodes_several_spoken_replies(piper, monkeypatch) -> None:
    from app.cpu_share import EngineWork

    spoke_on = []
    for voice in (piper._alone, piper._beside_engine):
        threads = voice.session.get_session_options().intra_op_num_threads

        def spy(text, *, voice=voice, threads=threads, **config):
            spoke_on.append(threads)
            return type(voice).synthesize(voice, text, **config)

        monkeypatch.setattr(voice, "synthesize", spy)
    for replies in (0, 1, 2, 4, 1):
        monkeypatch.setattr("app.tts.piper_backend.engine_work", EngineWork(voice_replies=replies))
        assert_speech_like(list(piper.synthesize(SENTENCE)), piper.sample_rate, 1.0, 5.0)
    assert spoke_on == [2, 2, 1, 1, 2]  # the settings' threads (2) for one reply at most, else one beside the engine's


def seconds(synthesizer, text: str, speed: float) -> float:
    return sum(len(piece) for piece in synthesizer.synthesize(text, speed)) / synthesizer.sample_rate


def test_piper_speaks_faster_and_slower_at_a_speed(piper: PiperSynthesizer) -> None:
    assert piper.changes_speed
    normal = seconds(piper, SENTENCE, 1.0)
    assert seconds(piper, SENTENCE, 1.5) < 0.8 * normal  # the pauses between sentences keep their length
    assert seconds(piper, SENTENCE, 0.5) > 1.5 * normal
    assert_speech_like(list(piper.synthesize(SENTENCE, 1.5)), piper.sample_rate, 0.5, 4.0)


def test_piper_voice_that_cannot_load_is_a_clear_error(tmp_path: Path, prepared) -> None:
    broken = tmp_path / "broken.onnx"
    broken.write_bytes(b"not a model")
    with pytest.raises(SynthesisError, match="cannot load piper voice"):
        PiperSynthesizer(broken, prepared.piper_config)


def test_piper_streams_one_piece_per_sentence(piper: PiperSynthesizer) -> None:
    assert len(list(piper.synthesize("Hello there. How are you today? I am fine."))) == 3


def test_espeak_streams_speech_at_its_rate() -> None:
    espeak = EspeakSynthesizer()
    assert espeak.sample_rate == 22050
    pieces = list(espeak.synthesize(SENTENCE))
    assert len(pieces) > 1  # passed on while espeak-ng is still writing
    assert_speech_like(pieces, espeak.sample_rate, 1.0, 5.0)


def test_espeak_speaks_faster_and_slower_at_a_speed() -> None:
    espeak = EspeakSynthesizer()
    assert espeak.changes_speed
    normal = seconds(espeak, SENTENCE, 1.0)
    assert seconds(espeak, SENTENCE, 1.5) < 0.8 * normal and seconds(espeak, SENTENCE, 0.6) > 1.4 * normal


def test_espeak_rejects_an_unknown_voice() -> None:
    with pytest.raises(SynthesisError, match="qqzz"):
        EspeakSynthesizer("qqzz")


def test_settings_choose_the_backend_and_fall_back_to_espeak(prepared, tmp_path: Path, caplog) -> None:
    assert create_synthesizer(Settings(tts_backend="piper"), prepared).name == "piper"
    assert create_synthesizer(Settings(tts_backend="espeak")).name == "espeak"
    empty_model = tmp_path / "empty-coqui-model"
    empty_model.mkdir()
    with caplog.at_level(logging.WARNING, logger="app.tts.synthesizer"):
        fallback = create_synthesizer(Settings(tts_backend="coqui", tts_voice=str(empty_model)), prepared)
    assert fallback.name == "espeak"
    assert "coqui backend unavailable" in caplog.text


def words(text: str) -> str:
    return " ".join(re.sub(r"[^a-z0-9' ]", " ", text.lower()).split())


def test_whisper_transcribes_piper_speech_back_to_the_input_words(prepared) -> None:
    import onnxruntime
    import whisper

    # piper draws its noise inside the model, from ONNX Runtime's generator: seeded before the session is built, the
    # audio is the same in every run, so the bound judges the voice and its speeds, not one draw's luck (unseeded,
    # 9 of 40 draws at speed 1.5 were heard with 2 words wrong, the bound, and a test run's draw once with 3)
    onnxruntime.set_seed(0)
    piper = PiperSynthesizer(prepared.piper_model, prepared.piper_config)
    text = ("The quick brown fox jumps over the lazy dog. "
            "Good morning! The weather today is sunny and warm, with a light breeze.")
    model = whisper.load_model(str(prepared.whisper_pt), device="cpu")
    for speed in (1.0, 1.5):  # the fastest speed a session may ask for is still the words
        audio = resample(np.concatenate(list(piper.synthesize(text, speed))), piper.sample_rate, 16000)
        heard = model.transcribe(audio, language="en", fp16=False, temperature=0.0)["text"]
        assert jiwer.wer(words(text), words(heard)) <= 0.1, heard  # at most 2 of 22 words


# --- Coqui: a tiny VITS with random weights, built here, loaded through Coqui's own model-path API ---


def build_tiny_vits(folder: Path) -> Path:
    """A ~250k-parameter VITS (model.pth + config.json) so Coqui's real loading path runs offline."""
    import torch
    from TTS.tts.configs.shared_configs import CharactersConfig
    from TTS.tts.configs.vits_config import VitsArgs, VitsConfig
    from TTS.tts.models.vits import Vits

    args = VitsArgs(
        hidden_channels=16, hidden_channels_ffn_text_encoder=32, num_layers_text_encoder=1, num_layers_flow=1,
        num_layers_posterior_encoder=1, use_sdp=False, init_discriminator=False,
        upsample_rates_decoder=[8, 8, 4], upsample_initial_channel_decoder=32,
        upsample_kernel_sizes_decoder=[16, 16, 8], resblock_type_decoder="2",
        resblock_kernel_sizes_decoder=[3], resblock_dilation_sizes_decoder=[[1, 3, 5]],
    )  # fmt: skip
    characters = CharactersConfig(
        characters_class="TTS.tts.utils.text.characters.Graphemes", pad="_", eos="&", bos="*", blank=None,
        characters="abcdefghijklmnopqrstuvwxyz", punctuations=" !,.?-'",
    )  # fmt: skip
    config = VitsConfig(model_args=args, use_phonemes=False, text_cleaner="basic_cleaners",
                        characters=characters, add_blank=False)  # fmt: skip
    torch.manual_seed(0)
    model = Vits(config)
    folder.mkdir(parents=True, exist_ok=True)
    torch.save({"model": model.state_dict()}, folder / "model.pth")
    config.save_json(str(folder / "config.json"))
    return folder


@pytest.fixture(scope="module")
def tiny_vits(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_tiny_vits(tmp_path_factory.mktemp("coqui") / "tiny-vits")


def test_coqui_loads_a_local_model_folder_and_streams_per_sentence(tiny_vits: Path) -> None:
    from app.tts.coqui_backend import CoquiSynthesizer

    coqui = CoquiSynthesizer(tiny_vits)
    assert coqui.sample_rate == json.loads((tiny_vits / "config.json").read_text())["audio"]["sample_rate"] == 22050
    pieces = list(coqui.synthesize("Hello there. How are you?"))
    assert len(pieces) == 2
    audio = np.concatenate(pieces)
    assert audio.dtype == np.float32 and len(audio) > 0.1 * coqui.sample_rate
    assert rms(audio) > 1e-4  # random weights: noise, but not silence
    assert list(coqui.synthesize(" ... ")) == []
    assert coqui.changes_speed  # a VITS stretches its phonemes' durations
    slow, normal = (sum(len(p) for p in coqui.synthesize("Hello there. How are you?", speed)) for speed in (0.5, 1.0))
    assert slow > 1.1 * normal and coqui._model.length_scale == 1.0  # the model's own scale is back after a call at 1


def test_coqui_accepts_a_checkpoint_path_and_is_chosen_by_the_settings(tiny_vits: Path) -> None:
    from app.tts.coqui_backend import CoquiSynthesizer

    assert CoquiSynthesizer(tiny_vits / "model.pth").sample_rate == 22050
    chosen = create_synthesizer(Settings(tts_backend="coqui", tts_voice=str(tiny_vits)))
    assert chosen.name == "coqui"
    assert list(chosen.synthesize("Hi."))


def test_coqui_folder_without_a_checkpoint_is_a_clear_error(tmp_path: Path) -> None:
    from app.tts.coqui_backend import CoquiSynthesizer

    with pytest.raises(SynthesisError, match="no .pth checkpoint"):
        CoquiSynthesizer(tmp_path)
