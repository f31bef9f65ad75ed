"""voicechat: a real-time voice chat server on a shared, voice-aware LLM engine."""

import os

# A decode step of a small model is hundreds of small torch ops, each an OpenMP parallel region.
# If the waiting OpenMP thread sleeps between them, every op pays a futex wake-up (measured: half
# the decode speed); with libgomp's default (300,000 spins) it burns the core that ASR and TTS
# need (single ops ran 10-1000x slower). A short spin keeps the thread awake between the ops of a
# step only. libgomp spins only while it runs no more threads than cores, which is why only the LLM
# engine's thread runs multi-threaded torch ops (see app/device.py). Set before torch is imported.
os.environ.setdefault("GOMP_SPINCOUNT", "10000")

__version__ = "0.1.0"
