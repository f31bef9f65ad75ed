"""Where torch work runs and in which precision: one answer for every stage."""

from __future__ import annotations

import functools
import os
import platform
import threading
from collections.abc import Callable
from typing import Any, TypeVar
from pathlib import Path

import torch

import app

T = TypeVar("T")


def resolve_device(setting: str) -> torch.device:
    """The ``device`` setting: 'auto' is the first GPU when torch sees one, else the CPU."""
    if setting == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    return torch.device(setting)


def working_device(setting: str) -> torch.device:
    """The device a stage runs its torch work on (``resolve_device``), made ready for it: called by the stages that
    run models (the LLM engine, Whisper, Coqui, ``bench engine``) before their first step."""
    device = resolve_device(setting)
    prepare_attention(device)
    return device


def prepare_attention(device: torch.device) -> None:
    """On CUDA, keep ``scaled_dot_product_attention`` off cuDNN's attention for the whole process.

    torch tries cuDNN's attention first on Hopper and Blackwell GPUs with a recent cuDNN. It builds an
    execution plan for each exact shape, key length included, and a plan takes tens of milliseconds of host
    time to build. Each decode step of the LLM and of Whisper attends over one more key than the last, so
    every step would build a new plan. Flash and memory-efficient attention take any length. The switch is
    process-wide in torch (not per thread), which suits: both stages decode.
    """
    if device.type == "cuda":
        torch.backends.cuda.enable_cudnn_sdp(False)


@functools.cache
def _cpuinfo(field: str) -> str | None:
    """The first value of ``field`` in Linux's /proc/cpuinfo (None elsewhere or where it is missing)."""
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return None
    return next((line.split(":", 1)[1].strip() for line in text.splitlines() if line.split(":", 1)[0].strip() == field),
                None)


def cpu_name() -> str:
    """The CPU's model name, e.g. 'Intel(R) Xeon(R) Processor' (the platform's processor where Linux does not say)."""
    return _cpuinfo("model name") or platform.processor() or platform.machine()


@functools.cache
def cpu_flags() -> frozenset[str]:
    """The CPU's feature flags (Linux /proc/cpuinfo; empty elsewhere), less those of the newer instruction sets that
    ``VOICECHAT_CPU_ISA`` leaves out (app/__init__.py)."""
    flags = frozenset((_cpuinfo("flags") or "").split())
    if app.CPU_ISA in app.CPU_CLASSES:
        return frozenset(flag for flag in flags if not flag.startswith(app.CPU_CLASSES[app.CPU_ISA][2]))
    return flags


def cpu_has_fast_bf16() -> bool:
    """AVX-512 bf16 or AMX: bf16 matmuls then run in hardware, faster than fp32 on the CPU."""
    return bool({"avx512_bf16", "amx_bf16"} & cpu_flags())


def resolve_dtype(setting: str, device: torch.device) -> torch.dtype:
    """A dtype setting: 'auto' is bf16 (fp16 on GPUs without it) on a GPU, bf16 on CPUs with
    native bf16, else fp32."""
    if setting != "auto":
        return getattr(torch, setting)
    if device.type == "cuda":
        return torch.bfloat16 if torch.cuda.is_bf16_supported() else torch.float16
    return torch.bfloat16 if cpu_has_fast_bf16() else torch.float32


def use_torch_threads(count: int) -> int:
    """Run the calling thread's torch CPU ops on ``count`` threads (0 = one per usable core).

    Each OpenMP thread team belongs to the thread that started it and lives as long as that
    thread. libgomp keeps its threads spinning between ops (GOMP_SPINCOUNT, app/__init__.py) only
    while all teams together have no more threads than cores, so the LLM engine's thread takes
    the cores and every other thread that runs torch (model loading, ASR) calls this with 1
    before its first op. torch also makes ``count`` the default of threads that have not yet run
    a parallel op. Returns the count.
    """
    count = count or len(os.sched_getaffinity(0))
    torch.set_num_threads(count)
    return count


def on_own_thread(work: Callable[[], T]) -> T:
    """Run torch work on a thread that ends with it: its torch thread team ends too, so no extra team
    outlives it and takes a core from the LLM engine's (see ``use_torch_threads``). Errors re-raise here."""
    outcome: dict[str, Any] = {}

    def target() -> None:
        try:
            outcome["value"] = work()
        except BaseException as error:  # re-raised on the caller's thread
            outcome["error"] = error

    thread = threading.Thread(target=target, name="own-torch-thread")
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]
