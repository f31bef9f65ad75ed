"""The machine's decode limit for a model: measured bandwidth and matmul peak, then the roofline.

A decode step must stream every weight once (as the engine stores it: 4/8-bit records, 16-bit, fp32)
plus each row's KV cache (as stored), and do two FLOPs per weight per row plus the attention products;
it can be no faster than the slower of the two. The machine's side is its best: the highest memory
bandwidth over several methods and sizes, and the highest matmul peak over the dtypes the kernels could
compute in (the 4-bit integer kernel's too), never just the dtype the engine happened to choose.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import torch

from app.kernels import cpu_kernels
from app.kernels.linear import Linear
from app.kernels.quantize import timing_weight


@dataclass(frozen=True)
class MachineLimits:
    read_bytes_per_s: float  # the best read rate of the methods in bandwidth_by_method
    copy_bytes_per_s: float  # read + write of a large tensor, both counted
    matmul_flops_per_s: dict[str, float]  # by dtype name
    bandwidth_by_method: dict[str, float] = field(default_factory=dict)  # bytes/s of each read method and size
    cache_bytes: int = 0  # the CPU's largest cache: a read method whose data fits in it is not counted

    @property
    def best_matmul_flops_per_s(self) -> float:
        return max(self.matmul_flops_per_s.values())


@dataclass(frozen=True)
class ModelShape:
    parameters: int  # multiplied once per row and decode step (a tied embedding counts once: as the LM head)
    weight_bytes: int  # streamed once per decode step, as stored
    layers: int
    query_width: int  # attention heads x head dim
    kv_bytes_per_token: int  # all layers, keys and values

    @classmethod
    def of(cls, model: torch.nn.Module) -> ModelShape:
        config = model.config
        head_dim = getattr(config, "head_dim", None) or config.hidden_size // config.num_attention_heads
        kv_heads = getattr(config, "num_key_value_heads", None) or config.num_attention_heads
        element = next(model.parameters()).element_size()
        unique = {p.data_ptr(): p.numel() for p in model.parameters()}
        return cls(
            parameters=sum(unique.values()),
            weight_bytes=sum(unique.values()) * element,
            layers=config.num_hidden_layers,
            query_width=config.num_attention_heads * head_dim,
            kv_bytes_per_token=config.num_hidden_layers * 2 * kv_heads * head_dim * element,
        )


def _sync(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def _best_seconds(work, repeats: int, device: torch.device) -> float:
    work()
    _sync(device)
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        _sync(device)
        best = min(best, time.perf_counter() - start)
    return best


def _q4_kernel_flops(repeats: int) -> float:
    """The engine's 4-bit kernel over 16 rows (a batch-8 decode step's rows, and more when it verifies speculated
    tokens) of a weight the caches hold: it multiplies in integer dot products (VNNI on AVX-512), faster than any
    float matmul of the CPU, so a decode limit that took only the float peaks would be one the engine can beat."""
    rows, inputs = 16, 8192
    layer = Linear(timing_weight(16 * 2**20, inputs))
    x = torch.ones(rows, inputs)
    return 2 * rows * inputs * layer.out_features / _best_seconds(lambda: layer(x), 4 * repeats, torch.device("cpu"))


_SIZE_UNITS = {"K": 2**10, "M": 2**20, "G": 2**30}


def last_level_cache_bytes(cpu: Path = Path("/sys/devices/system/cpu/cpu0")) -> int:
    """The largest cache the first core reads through (sysfs; 0 where not told)."""
    sizes = []
    for size_file in cpu.glob("cache/index*/size"):
        text = size_file.read_text().strip()
        if text[-1:] in _SIZE_UNITS and text[:-1].isdigit():
            sizes.append(int(text[:-1]) * _SIZE_UNITS[text[-1]])
        elif text.isdigit():
            sizes.append(int(text))
    return max(sizes, default=0)


def memory_read_rate(rates: dict[str, float], working_sets: dict[str, int], cache_bytes: int) -> float:
    """The best rate of the read methods whose data outgrows the cache (a 256 MiB sum on a CPU with a 300 MiB L3 read
    the cache at 41 GB/s, against the memory's 28, and a decode step's 920 MB do not fit); of all where none does."""
    beyond = [rate for name, rate in rates.items() if working_sets[name] > cache_bytes]
    return max(beyond or rates.values())


@torch.inference_mode()
def measure_machine(device: torch.device, dtypes: list[torch.dtype]) -> MachineLimits:
    """Best of several runs: the figures are ceilings, and a shared machine only ever makes them
    lower (a low ceiling would flatter the efficiency). Bandwidth is the best of a sum over 256 MiB and
    1 GiB and decode-shaped GEMVs over 512 MiB of 16-bit and 4-bit weights, since one method on a noisy machine
    can read low by a third, counting only those whose data outgrows the CPU's caches; ~5 s on a CPU."""
    repeats = 6
    gpu = device.type == "cuda"
    q4_kernel = not gpu and cpu_kernels.load() is not None  # the engine's 4-bit kernel runs here
    methods: dict[str, float] = {}
    working_sets: dict[str, int] = {}
    for mib in ((1024, 4096) if gpu else (256, 1024)):
        big = torch.ones(mib * 2**18, dtype=torch.float32, device=device)
        methods[f"sum_{mib}mib"] = big.numel() * 4 / _best_seconds(big.sum, repeats, device)
        working_sets[f"sum_{mib}mib"] = mib * 2**20
        del big
    # decode-shaped GEMVs over 512 MiB of weights through the engine's own linear layers: 16-bit, and
    # 4-bit records (least arithmetic per byte: on a CPU the only method near the memory's own rate)
    compute = torch.float32 if not gpu else torch.bfloat16
    vector = torch.ones(1, 16384, dtype=compute, device=device)
    layers = {"gemv_16bit_512mib": Linear(torch.ones(16384, 16384, dtype=torch.bfloat16, device=device),
                                          compute_dtype=compute)}
    if q4_kernel:
        layers["gemv_q4_512mib"] = Linear(timing_weight(2**29, 16384))
    for name, layer in layers.items():
        methods[name] = layer.weight_bytes / _best_seconds(lambda: layer(vector), repeats, device)
        working_sets[name] = layer.weight_bytes
    del layers
    big = torch.ones(1 << (28 if gpu else 26), dtype=torch.float32, device=device)
    target = torch.empty_like(big)
    copy_s = _best_seconds(partial(target.copy_, big), repeats, device)
    copy_bytes = 2 * big.numel() * 4
    del big, target
    size = 8192 if gpu else 2048
    peaks = {}
    for dtype in dtypes:
        a = torch.randn(size, size, device=device).to(dtype)
        b = torch.randn(size, size, device=device).to(dtype)
        seconds = _best_seconds(lambda: a @ b, repeats, device)
        peaks[str(dtype).removeprefix("torch.")] = 2 * size**3 / seconds
    if q4_kernel:
        peaks["q4_kernel"] = _q4_kernel_flops(repeats)
    cache = 0 if gpu else last_level_cache_bytes()
    return MachineLimits(
        read_bytes_per_s=memory_read_rate(methods, working_sets, cache),
        copy_bytes_per_s=copy_bytes / copy_s,
        matmul_flops_per_s=peaks,
        bandwidth_by_method=methods,
        cache_bytes=cache,
    )


def decode_step_seconds(shape: ModelShape, batch: int, context: float, bandwidth: float, peak_flops: float) -> float:
    """Lower bound of one decode step for ``batch`` rows with ``context`` tokens of KV each."""
    step_bytes = shape.weight_bytes + batch * context * shape.kv_bytes_per_token
    step_flops = batch * (2 * shape.parameters + 4 * shape.layers * shape.query_width * context)
    return max(step_bytes / bandwidth, step_flops / peak_flops)


def decode_tokens_per_s_limit(shape: ModelShape, batch: int, context: float, limits: MachineLimits) -> float:
    """The best the machine allows: its best bandwidth and its best matmul peak."""
    return batch / decode_step_seconds(shape, batch, context, limits.read_bytes_per_s, limits.best_matmul_flops_per_s)
