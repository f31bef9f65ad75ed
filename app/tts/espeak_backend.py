"""espeak-ng through its command line: robotic, but always there (a Debian package), so the fallback."""

from __future__ import annotations

import shutil
import struct
import subprocess
from collections.abc import Iterator

import numpy as np

from app.audio import pcm16_to_float32
from app.tts.synthesizer import SynthesisError

_READ_BYTES = 4096  # ~93 ms at 22.05 kHz: audio is passed on while espeak-ng is still writing


class EspeakSynthesizer:
    """Streams the wav that ``espeak-ng --stdout`` writes, piece by piece as it arrives."""

    name = "espeak"
    changes_speed = True

    def __init__(self, voice: str = "en-us", words_per_minute: int = 175) -> None:
        self._binary = shutil.which("espeak-ng")
        if self._binary is None:
            raise SynthesisError("espeak-ng is not installed (apt-get install espeak-ng)")
        self.voice = voice
        self.words_per_minute = words_per_minute
        self.sample_rate: int = self._probe_sample_rate()

    def _command(self, text: str, speed: float = 1.0) -> list[str]:
        rate = round(self.words_per_minute * speed)
        return [self._binary, "--stdout", "-v", self.voice, "-s", str(rate), "--", text]

    def _probe_sample_rate(self) -> int:
        result = subprocess.run(self._command("a"), capture_output=True, timeout=10, check=False)
        if result.returncode != 0 or len(result.stdout) < 44:
            reason = result.stderr.decode(errors="replace").strip()
            raise SynthesisError(f"espeak-ng voice {self.voice!r} failed: {reason}")
        return struct.unpack_from("<I", result.stdout, 24)[0]

    def synthesize(self, text: str, speed: float = 1.0) -> Iterator[np.ndarray]:
        if not text.strip():
            return
        with subprocess.Popen(self._command(text, speed), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL) as process:
            assert process.stdout is not None
            try:
                header = process.stdout.read(44)  # RIFF header; espeak-ng writes PCM16 mono
                if len(header) < 44:
                    raise SynthesisError(f"espeak-ng produced no audio for {text!r}")
                carry = b""
                while block := process.stdout.read1(_READ_BYTES):
                    block, carry = carry + block, b""
                    if len(block) % 2:
                        block, carry = block[:-1], block[-1:]
                    if block:
                        yield pcm16_to_float32(block)
            finally:
                if process.poll() is None:
                    process.kill()
