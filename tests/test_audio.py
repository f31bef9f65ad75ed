"""PCM conversion, wav files and resampling."""

from __future__ import annotations

import numpy as np
import pytest

from app.audio import StreamResampler, float32_to_pcm16, load_audio, pcm16_to_float32, read_wav, resample, write_wav

RATE_PAIRS = [(16000, 24000), (22050, 24000), (22050, 16000), (48000, 16000), (44100, 16000), (16000, 48000), (8000, 16000)]


def _sine(freq: float, rate: int, seconds: float = 1.0) -> np.ndarray:
    return (0.5 * np.sin(2 * np.pi * freq * np.arange(int(rate * seconds)) / rate)).astype(np.float32)


def _peak_hz(audio: np.ndarray, rate: int) -> float:
    spectrum = np.abs(np.fft.rfft(audio * np.hanning(len(audio))))
    return float(np.argmax(spectrum) * rate / len(audio))


def test_pcm16_round_trip_within_one_step():
    audio = np.linspace(-1, 1, 1001, dtype=np.float32)
    data = float32_to_pcm16(audio)
    assert isinstance(data, bytes) and len(data) == 2 * len(audio)
    back = pcm16_to_float32(data)
    assert back.dtype == np.float32
    assert np.max(np.abs(back - audio)) <= 1 / 32768 + 1e-6


def test_pcm16_clips_instead_of_wrapping():
    back = pcm16_to_float32(float32_to_pcm16(np.array([1.7, -3.0, 0.0], dtype=np.float32)))
    assert back[0] > 0.999 and back[1] < -0.999 and back[2] == 0.0


def test_pcm16_accepts_int16_arrays_and_rejects_odd_bytes():
    assert np.allclose(pcm16_to_float32(np.array([16384, -32768], dtype=np.int16)), [0.5, -1.0])
    with pytest.raises(ValueError):
        pcm16_to_float32(b"\x00\x01\x02")


def test_wav_round_trip_and_stereo_mixdown(tmp_path):
    mono = _sine(440, 16000, 0.5)
    write_wav(tmp_path / "mono.wav", mono, 16000)
    audio, rate = read_wav(tmp_path / "mono.wav")
    assert rate == 16000 and np.max(np.abs(audio - mono)) < 1e-3

    import soundfile as sf

    stereo = np.stack([mono, np.zeros_like(mono)], axis=1)
    sf.write(tmp_path / "stereo.wav", stereo, 22050)
    loaded = load_audio(tmp_path / "stereo.wav")  # mixed to mono and resampled to 16 kHz
    assert len(loaded) == int(np.ceil(len(mono) * 16000 / 22050))
    assert abs(np.max(np.abs(loaded[200:-200])) - 0.25) < 0.01


@pytest.mark.parametrize("src,dst", RATE_PAIRS)
def test_resample_keeps_frequency_amplitude_and_length(src, dst):
    audio = _sine(440.0, src)
    out = resample(audio, src, dst)
    assert len(out) == int(np.ceil(len(audio) * dst / src))
    assert abs(_peak_hz(out, dst) - 440.0) < 2.0
    expected = 0.5 * np.sin(2 * np.pi * 440.0 * np.arange(len(out)) / dst)
    assert np.max(np.abs(out - expected)[100:-100]) < 1e-3


@pytest.mark.parametrize("src,dst", RATE_PAIRS)
def test_stream_in_random_chunks_equals_one_shot(src, dst):
    rng = np.random.default_rng(1)
    audio = rng.standard_normal(src // 2).astype(np.float32) * 0.1
    stream, pieces, at = StreamResampler(src, dst), [], 0
    while at < len(audio):
        size = int(rng.integers(0, 900))
        pieces.append(stream.feed(audio[at : at + size]))
        at += size
    pieces.append(stream.flush())
    assert np.allclose(np.concatenate(pieces), resample(audio, src, dst), atol=1e-6)


def test_downsampling_removes_tones_above_the_new_nyquist():
    out = resample(_sine(10000.0, 48000), 48000, 16000)  # 10 kHz cannot exist at 16 kHz
    assert np.sqrt(np.mean(out[100:-100] ** 2)) < 1e-3


def test_round_trip_through_another_rate_restores_band_limited_audio():
    audio = _sine(300.0, 16000) + _sine(2500.0, 16000) * 0.5
    back = resample(resample(audio, 16000, 22050), 22050, 16000)
    assert len(back) == len(audio)
    assert np.max(np.abs(back - audio)[200:-200]) < 2e-3


def test_same_rate_is_a_copy():
    audio = _sine(440.0, 16000, 0.1)
    out = resample(audio, 16000, 16000)
    assert out is not audio and np.array_equal(out, audio)
