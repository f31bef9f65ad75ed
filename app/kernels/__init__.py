"""Fast forms of the torch ops the models spend their time in, shared by the LLM engine and ASR.

``linear.Linear`` picks the fastest linear layer this machine offers; ``cpu_kernels`` compiles and
loads the engine's C++ kernels (fp32 compute over 16-bit weights on AVX2 CPUs).
"""
