"""Shared output of every benchmark: the machine, a table, a flat JSON file."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import app


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
