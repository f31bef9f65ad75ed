"""PCM16 <-> float32: the wire carries 16-bit little-endian PCM, every stage computes on float32 in [-1, 1]."""

from __future__ import annotations

import numpy as np

_SCALE = 32768.0


def pcm16_to_float32(data: bytes | bytearray | memoryview | np.ndarray) -> np.ndarray:
    """Decode little-endian PCM16 (bytes or an int16 array) to float32 in [-1, 1)."""
    if isinstance(data, np.ndarray):
        samples = data.astype("<i2", copy=False).reshape(-1)
    else:
        if len(data) % 2:
            raise ValueError(f"PCM16 data must have an even number of bytes, got {len(data)}")
        samples = np.frombuffer(data, dtype="<i2")
    return samples.astype(np.float32) / _SCALE


def float32_to_pcm16(audio: np.ndarray) -> bytes:
    """Encode float audio as little-endian PCM16 bytes; values beyond [-1, 1] are clipped, not wrapped."""
    scaled = np.rint(np.asarray(audio, dtype=np.float32).reshape(-1) * _SCALE)
    return np.clip(scaled, -_SCALE, _SCALE - 1).astype("<i2").tobytes()
