"""The machine's decode limit for a model: measured bandwidth and matmul peak, then the roofline.

A decode step must stream every weight once plus each row's KV cache, and do two FLOPs per weight
per row plus the attention products; it can be no faster than the slower of the two. Sizes come
from the model's own config and parameters, so the same code holds for any decoder-only model.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import torch


@dataclass(frozen=True)
class MachineLimits:
    read_bytes_per_s: float  # streaming a large tensor once (a sum)
    copy_bytes_per_s: float  # read + write of a large tensor, both counted
    matmul_flops_per_s: dict[str, float]  # by dtype name


@dataclass(frozen=True)
class ModelShape:
    parameters: int  # read once per decode step (a tied embedding counts once: it is read as the LM head)
    bytes_per_parameter: int
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
            bytes_per_parameter=element,
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


@torch.inference_mode()
def measure_machine(device: torch.device, dtypes: list[torch.dtype]) -> MachineLimits:
    """Best of several runs: the figures are ceilings, and a shared machine only ever makes them
    lower (a low ceiling would flatter the efficiency, so --quick takes as many runs: ~2 s on a CPU)."""
    repeats = 8
    gpu = device.type == "cuda"
    elements = (1 << 28 if gpu else 1 << 26)  # 1 GiB on a GPU, 256 MiB on a CPU (fp32): far beyond any cache
    big = torch.ones(elements, dtype=torch.float32, device=device)
    read_s = _best_seconds(lambda: big.sum(), repeats, device)
    target = torch.empty_like(big)
    copy_s = _best_seconds(lambda: target.copy_(big), repeats, device)
    del big, target
    size = 8192 if gpu else 2048
    peaks = {}
    for dtype in dtypes:
        a = torch.randn(size, size, device=device).to(dtype)
        b = torch.randn(size, size, device=device).to(dtype)
        seconds = _best_seconds(lambda: a @ b, repeats, device)
        peaks[str(dtype).removeprefix("torch.")] = 2 * size**3 / seconds
    return MachineLimits(
        read_bytes_per_s=elements * 4 / read_s,
        copy_bytes_per_s=2 * elements * 4 / copy_s,
        matmul_flops_per_s=peaks,
    )


def decode_step_seconds(shape: ModelShape, batch: int, context: float, bandwidth: float, peak_flops: float) -> float:
    """Lower bound of one decode step for ``batch`` rows with ``context`` tokens of KV each."""
    step_bytes = shape.parameters * shape.bytes_per_parameter + batch * context * shape.kv_bytes_per_token
    step_flops = batch * (2 * shape.parameters + 4 * shape.layers * shape.query_width * context)
    return max(step_bytes / bandwidth, step_flops / peak_flops)


def decode_tokens_per_s_limit(shape: ModelShape, batch: int, context: float, limits: MachineLimits, dtype: torch.dtype) -> float:
    peak = limits.matmul_flops_per_s[str(dtype).removeprefix("torch.")]
    return batch / decode_step_seconds(shape, batch, context, limits.read_bytes_per_s, peak)
