"""voicechat: a real-time voice chat server on a shared, voice-aware LLM engine."""

import os

# A decode step of a small model is hundreds of small torch ops, each an OpenMP parallel region.
# If the waiting OpenMP thread sleeps between them, every op pays a futex wake-up (measured: half
# the decode speed); with libgomp's default (300,000 spins) it burns the core that ASR and TTS
# need (single ops ran 10-1000x slower). A short spin keeps the thread awake between the ops of a
# step only. libgomp spins only while it runs no more threads than cores, which is why only the LLM
# engine's thread runs multi-threaded torch ops (see app/device.py). Set before torch is imported.
os.environ.setdefault("GOMP_SPINCOUNT", "10000")

# VOICECHAT_CPU_ISA=avx2 (or avx512) runs the CPU paths as on a CPU without AVX-512 or AMX (without AMX):
# torch's kernels, oneDNN's and the engine's own (app.device.cpu_flags), to measure that class of machine on a
# newer one. Set before torch is imported, which reads these once.
CPU_CLASSES = {  # name: (torch's capability, oneDNN's most capable ISA, CPU flags dropped)
    "avx2": ("avx2", "AVX2", ("avx512", "amx")),
    "avx512": ("avx512", "AVX512_CORE_BF16", ("amx",)),
}
CPU_ISA = os.environ.get("VOICECHAT_CPU_ISA", "native")
if CPU_ISA != "native" and CPU_ISA not in CPU_CLASSES:
    raise ValueError(f"VOICECHAT_CPU_ISA={CPU_ISA!r}: use native, {' or '.join(CPU_CLASSES)}")
if CPU_ISA in CPU_CLASSES:
    os.environ["ATEN_CPU_CAPABILITY"], os.environ["ONEDNN_MAX_CPU_ISA"] = CPU_CLASSES[CPU_ISA][:2]

__version__ = "0.1.0"
