"""voicechat: a real-time voice chat server on a shared, voice-aware LLM engine."""

import os

# ASR, the LLM engine and TTS each run torch/onnx work on their own threads in one process. With
# OpenMP's default spin-waiting those threads burn the cores they wait on, and on a 2-core machine
# single ops ran 10-1000x slower. Sleeping waits keep them out of each other's way. It must be set
# before torch is first imported, which is why it lives here.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

__version__ = "0.1.0"
