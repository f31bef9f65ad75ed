"""Audio helpers shared by every stage: PCM16 <-> float32, wav files, resampling."""

from app.audio.pcm import float32_to_pcm16, pcm16_to_float32
from app.audio.resample import StreamResampler, resample
from app.audio.wav import load_audio, read_wav, write_wav

__all__ = [
    "StreamResampler",
    "float32_to_pcm16",
    "load_audio",
    "pcm16_to_float32",
    "read_wav",
    "resample",
    "write_wav",
]
