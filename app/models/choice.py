"""Which packaged LLM ``llm_model=auto`` serves: the best on ``bench quality`` that this machine decodes
at voice speed.

A GPU takes the biggest. On a CPU a decode step streams every weight once, so the decode rate is the
rate the machine reads 4-bit weights through the engine's kernels (measured here, ~0.2 s, on a thread
of its own that ends with it) over the bytes the model streams per step; the first model, best first,
that reaches :data:`VOICE_DECODE_TPS` is chosen. A shared machine's neighbours only ever lower that rate, and
on a 2-core VM one start measured 11 GB/s where the next measured 18: the best rate this machine has
measured is kept in the cache folder, so one busy moment at start-up does not swap the model it serves.
"""

from __future__ import annotations

import functools
import json
import logging
import os
import time

import app
from app.config import cache_home
from app.device import cpu_name, on_own_thread, resolve_device

log = logging.getLogger(__name__)

# Best first on bench quality (docs/benchmarks.md), with the MiB each streams per decode step as the
# engine stores them on a CPU with llm_weight_bits=auto (the 1.5B all at 4 bits; the others 4-bit records
# where the GGUF kept 4 bits, 8-bit elsewhere); bf16 without the kernels.
CANDIDATES = {
    "qwen2.5-1.5b": {"quantized": 920, "bf16": 2944},
    "qwen2.5-0.5b": {"quantized": 479, "bf16": 988},
    "smollm2-135m": {"quantized": 92, "bf16": 256},
}
# Decode steps per second a voice reply needs: its first clause (~6 tokens) within ~0.5 s of its first
# token. Set well below what a quiet 2-core AVX-512 CPU measures for the 1.5B (~35), so that a busy
# moment at start-up does not change the choice.
VOICE_DECODE_TPS = 12.0


@functools.cache
def choose_llm(device: str) -> str:
    """The packaged LLM that 'auto' means on ``device`` (the ``device`` setting)."""
    if resolve_device(device).type == "cuda":
        reasons[next(iter(CANDIDATES))] = "a GPU serves the biggest"
        return next(iter(CANDIDATES))
    try:
        quantized, measured = on_own_thread(_read_rate)
    except Exception:  # no measurement: the smallest model is the safe choice
        log.exception("llm_model auto: could not measure this CPU")
        return next(reversed(CANDIDATES))
    form = "quantized" if quantized else "bf16"
    bytes_per_s = _best_known_rate(form, measured)
    for name, sizes in CANDIDATES.items():
        rate = bytes_per_s / (sizes[form] * 2**20)
        if rate >= VOICE_DECODE_TPS:
            break
    reasons[name] = (f"this CPU reads {'4-bit' if quantized else 'bf16'} weights at {bytes_per_s / 1e9:.1f} GB/s "
                     f"(best measured; {measured / 1e9:.1f} now): "
                     f"~{rate:.0f} decode steps/s of {name}; the voice floor is {VOICE_DECODE_TPS:.0f}")
    log.info("llm_model auto: %s (%s)", name, reasons[name])
    return name


reasons: dict[str, str] = {}  # why 'auto' chose a model, for the server's start-up log


def _best_known_rate(form: str, measured: float) -> float:
    """The best of ``measured`` and the rates measured before on this machine (same CPU, cores and weight form),
    which it records."""
    path = cache_home() / "voicechat" / "cpu-read-rates.json"
    try:
        known = json.loads(path.read_text())
    except (OSError, ValueError):
        known = {}
    known = known if isinstance(known, dict) else {}
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    key = f"{cpu_name()} | {cores} cores | {app.CPU_ISA} ISA | {form}"
    try:
        recorded = float(known.get(key, 0.0))
    except (TypeError, ValueError):  # a record edited by hand
        recorded = 0.0
    best = max(measured, recorded)
    if best > recorded:
        known[key] = best
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            temporary = path.with_suffix(f".{os.getpid()}.tmp")
            temporary.write_text(json.dumps(known, indent=1))
            temporary.replace(path)
        except OSError as error:
            log.warning("llm_model auto: could not record this CPU's read rate in %s (%s)", path, error)
    return best


def _read_rate() -> tuple[bool, float]:
    """(whether the 4-bit kernels run, the bytes/s a decode-shaped GEMV streams: best of 3 over 128 MiB)."""
    import torch

    from app.device import use_torch_threads
    from app.kernels import cpu_kernels
    from app.kernels.linear import Linear
    from app.kernels.quantize import timing_weight

    use_torch_threads(0)
    inputs = 4096
    if cpu_kernels.load() is not None:
        layer, x = Linear(timing_weight(2**27, inputs)), torch.ones(1, inputs)
    else:
        layer = Linear(torch.ones(2**26 // inputs, inputs, dtype=torch.bfloat16))
        x = torch.ones(1, inputs, dtype=torch.bfloat16)
    layer(x)
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        layer(x)
        best = min(best, time.perf_counter() - started)
    return layer.quantized is not None, layer.weight_bytes / best
