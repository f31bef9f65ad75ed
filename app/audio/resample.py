"""Band-limited resampling between any two integer rates (polyphase windowed sinc, numpy only).

Output sample n sits at input time n * src / dst. With src/dst reduced to down/up, that time's
fractional part takes only ``up`` values, so the Kaiser-windowed sinc weights are tabulated once per
rate pair. The cut-off is just below the lower Nyquist frequency, so downsampling does not alias.
``StreamResampler`` keeps its history between chunks: a stream resampled chunk by chunk equals the
whole signal resampled at once (no clicks at chunk borders).
"""

from __future__ import annotations

from functools import lru_cache
from math import gcd

import numpy as np

_ZERO_CROSSINGS = 16  # sinc lobes kept on each side: ~90 dB stop band with the Kaiser window below
_KAISER_BETA = 8.6
_ROLLOFF = 0.94  # pass band edge as a fraction of the lower Nyquist frequency
_BLOCK = 4096  # outputs computed per vectorised step (bounds the temporary gather matrix)


@lru_cache(maxsize=32)
def _kernel(up: int, down: int) -> tuple[np.ndarray, int]:
    """Weights ``[up, 2 * half]`` per output phase, and ``half`` (the one-sided width in input samples)."""
    cutoff = 0.5 * min(1.0, up / down) * _ROLLOFF  # cycles per input sample
    half = int(np.ceil(_ZERO_CROSSINGS / (2 * cutoff)))
    phase = np.arange(up)[:, None] / up  # fractional input position of each phase
    tau = phase + half - 1 - np.arange(2 * half)[None, :]  # output time minus tap time
    window = np.i0(_KAISER_BETA * np.sqrt(np.clip(1.0 - (tau / half) ** 2, 0.0, None))) / np.i0(_KAISER_BETA)
    weights = 2 * cutoff * np.sinc(2 * cutoff * tau) * window
    weights /= weights.sum(axis=1, keepdims=True)  # exact unity gain at DC for every phase
    return weights.astype(np.float32), half


class StreamResampler:
    """Resample a stream chunk by chunk; ``flush()`` returns the tail once the stream ends."""

    def __init__(self, src_rate: int, dst_rate: int) -> None:
        if src_rate <= 0 or dst_rate <= 0:
            raise ValueError(f"sample rates must be positive, got {src_rate} -> {dst_rate}")
        g = gcd(int(src_rate), int(dst_rate))
        self.src_rate, self.dst_rate = int(src_rate), int(dst_rate)
        self._up, self._down = self.dst_rate // g, self.src_rate // g
        self._weights, self._half = _kernel(self._up, self._down) if self._up != self._down else (None, 0)
        self.reset()

    def reset(self) -> None:
        """Forget the stream so far (start a new one)."""
        self._buf = np.zeros(self._half, dtype=np.float32)  # input history; leading zeros before the stream
        self._buf_start = -self._half  # absolute input index of self._buf[0]
        self._next_out = 0  # absolute index of the next output sample
        self._n_in = 0

    def feed(self, chunk: np.ndarray) -> np.ndarray:
        """Resample the next chunk; returns what is ready (the last few samples wait for more input)."""
        chunk = np.asarray(chunk, dtype=np.float32).reshape(-1)
        if self._weights is None:
            return chunk.copy()
        self._n_in += len(chunk)
        self._buf = np.concatenate([self._buf, chunk])
        last_input = self._buf_start + len(self._buf) - 1
        return self._produce(self._outputs_ready(last_input - self._half))

    def flush(self) -> np.ndarray:
        """The remaining output of a finished stream (its length makes the total ``ceil(n_in * dst / src)``)."""
        if self._weights is None:
            return np.zeros(0, dtype=np.float32)
        total = -(-self._n_in * self._up // self._down)
        self._buf = np.concatenate([self._buf, np.zeros(2 * self._half + 1, dtype=np.float32)])
        out = self._produce(total)
        self.reset()
        return out

    def _outputs_ready(self, max_base: int) -> int:
        """Number of outputs whose taps end at or before input index ``max_base + half``."""
        return max(self._next_out, ((max_base + 1) * self._up - 1) // self._down + 1)

    def _produce(self, end: int) -> np.ndarray:
        pieces = []
        taps = np.arange(2 * self._half)
        for start in range(self._next_out, end, _BLOCK):
            n = np.arange(start, min(start + _BLOCK, end), dtype=np.int64)
            base, phase = np.divmod(n * self._down, self._up)
            index = (base - self._half + 1 - self._buf_start)[:, None] + taps[None, :]
            pieces.append(np.einsum("ij,ij->i", self._buf[index], self._weights[phase]))
        self._next_out = max(self._next_out, end)
        keep_from = (self._next_out * self._down) // self._up - self._half + 1  # first input the next output needs
        drop = max(0, keep_from - self._buf_start)
        self._buf, self._buf_start = self._buf[drop:], self._buf_start + drop
        return np.concatenate(pieces).astype(np.float32) if pieces else np.zeros(0, dtype=np.float32)


def resample(audio: np.ndarray, src_rate: int, dst_rate: int) -> np.ndarray:
    """Resample a whole signal; the result has ``ceil(len * dst / src)`` samples."""
    if src_rate == dst_rate:
        return np.asarray(audio, dtype=np.float32).reshape(-1).copy()
    stream = StreamResampler(src_rate, dst_rate)
    head = stream.feed(audio)
    return np.concatenate([head, stream.flush()])
