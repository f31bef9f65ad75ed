"""Shared output of every benchmark: the machine, a table, a flat JSON file."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import app

_run_started: tuple[list[int] | None, float | None] = (None, None)  # CPU times and load average when the run began


def cpu_times() -> list[int] | None:
    """The machine's CPU time so far, in clock ticks, by kind: user, nice, system, idle, iowait, irq, softirq,
    steal (``/proc/stat``); None where the kernel does not say."""
    try:
        fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()
    except OSError:
        return None
    if len(fields) < 9 or fields[0] != "cpu":
        return None
    return [int(value) for value in fields[1:9]]


def note_run_start() -> None:
    """Remember the machine's state as a benchmark starts, for the facts its report gives."""
    global _run_started
    _run_started = (cpu_times(), os.getloadavg()[0] if hasattr(os, "getloadavg") else None)


def stolen_share(before: list[int], after: list[int]) -> float | None:
    """The share of the CPUs' time between two :func:`cpu_times` that a hypervisor gave to other machines (steal): on
    a shared virtual machine, how much of the run's slowness was not the run's own."""
    elapsed = sum(after) - sum(before)
    return round((after[7] - before[7]) / elapsed, 3) if elapsed > 0 else None


def machine_facts() -> dict[str, Any]:
    """What the numbers were measured on, so they are never quoted without it."""
    import torch

    from app.device import cpu_flags, cpu_name

    facts: dict[str, Any] = {
        "machine_cpu": cpu_name(),
        "machine_cores": os.cpu_count(),
        "machine_torch": torch.__version__,
        "machine_gpu": torch.cuda.get_device_name(0) if torch.cuda.is_available() else "none",
    }

    # the CPU class a figure holds for: which of the fast paths this CPU takes
    relevant = ("avx2", "fma", "f16c", "avx512f", "avx512_vnni", "avx512_bf16", "amx_bf16", "amx_int8")
    facts["machine_cpu_flags"] = " ".join(flag for flag in relevant if flag in cpu_flags()) or "none of the x86 fast paths"
    if app.CPU_ISA != "native":
        facts["machine_cpu_isa"] = f"{app.CPU_ISA} (VOICECHAT_CPU_ISA: the paths of that class on this CPU)"
    started, load = _run_started
    if load is not None:
        facts["machine_load_before"] = round(load, 2)  # 1-minute load average as the run began: others' work
    now = cpu_times()
    if started is not None and now is not None and (stolen := stolen_share(started, now)) is not None:
        facts["machine_cpu_stolen"] = stolen  # during the run: 0.3 means the run had ~70% of the CPUs it asked for
    return facts


def report(title: str, results: dict[str, Any], json_path: str | None) -> dict[str, Any]:
    """Print ``results`` as a two-column table under ``title`` and write them (plus machine facts) as JSON."""
    flat = {**results, **machine_facts()}
    width = max(len(k) for k in flat)
    print(f"\n== {title} ==")
    for key, value in flat.items():
        shown = f"{value:.4g}" if isinstance(value, float) else str(value)
        print(f"{key:<{width}}  {shown}")
    if json_path:
        Path(json_path).parent.mkdir(parents=True, exist_ok=True)
        Path(json_path).write_text(json.dumps(flat, indent=2) + "\n")
        print(f"wrote {json_path}")
    return flat
