"""The lean forward for the Llama family (Llama, SmolLM, Qwen2, Mistral without sliding window).

Fused q/k/v and gate/up weights taken from the checkpoint, precomputed rotary tables, no per-layer
Python objects beyond what the maths needs: per-step dispatch, not arithmetic, dominates small models
on a CPU, so this is several times faster than the HF module tree. It shares the packed step layout and
:func:`app.engine.attention.paged_attention` with the generic path of :mod:`app.engine.model_runner`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import torch
import torch.nn.functional as F

from app.engine.attention import StepInputs, paged_attention
from app.engine.kv_cache import KVCache
from app.engine.weights import CheckpointTensors, ModelTensors
from app.kernels import cpu_kernels
from app.kernels.linear import Linear
from app.kernels.quantize import QuantizedWeight

log = logging.getLogger(__name__)

LEAN_MODEL_TYPES = {"llama", "qwen2", "mistral"}


class LeanLlama:
    """Llama-family decoder over fused copies of the HF weights."""

    def __init__(self, model: torch.nn.Module, tensors: CheckpointTensors | ModelTensors, max_positions: int, *,
                 compute_dtype: torch.dtype, half_weights: bool, weight_bits: int | str,
                 packed: dict[str, QuantizedWeight] | None = None) -> None:
        """``model`` gives the config and the rotary module (its weights may be on the meta device);
        ``tensors`` the weights by name, which may be narrower than ``compute_dtype`` (a bf16 checkpoint
        for fp32 compute): the linears keep them packed, the small tensors are converted once here.
        ``packed``: 4/8-bit linears packed before (:class:`app.engine.weights.PackedCache`), by key."""
        cfg = model.config
        self.num_heads = cfg.num_attention_heads
        self.num_kv = cfg.num_key_value_heads
        self.head_dim = getattr(cfg, "head_dim", None) or cfg.hidden_size // cfg.num_attention_heads
        self.eps = cfg.rms_norm_eps
        self.scale = self.head_dim**-0.5
        self.dtype = compute_dtype
        packed = packed or {}

        def small(name: str) -> torch.Tensor | None:
            return tensors.get(name).to(compute_dtype) if name in tensors else None

        def linear(key: str, weight: Callable[[], torch.Tensor], bias: torch.Tensor | None = None) -> Linear:
            source = packed[key] if key in packed else weight()  # fused copies are made only when packing
            return Linear(source, bias, half_weights=half_weights, bits=weight_bits, compute_dtype=compute_dtype)

        def fused(*names: str) -> Callable[[], torch.Tensor]:
            return lambda: torch.cat([tensors.get(name) for name in names]).contiguous()

        self.embed = tensors.get("model.embed_tokens.weight")  # looked up row by row: kept as stored
        self.final_norm = small("model.norm.weight")
        head = "lm_head.weight" if "lm_head.weight" in tensors else "model.embed_tokens.weight"  # tied
        self.lm_head = linear("lm_head", fused(head))
        packing = not packed and self.lm_head.quantized is not None  # the first start's long step
        self.layers = []
        for i in range(cfg.num_hidden_layers):
            p = f"model.layers.{i}."
            biases = [small(f"{p}self_attn.{x}_proj.bias") for x in "qkv"]
            self.layers.append(
                (
                    small(p + "input_layernorm.weight"),
                    linear(f"layers.{i}.qkv", fused(*(f"{p}self_attn.{x}_proj.weight" for x in "qkv")),
                           torch.cat(biases) if all(b is not None for b in biases) else None),
                    linear(f"layers.{i}.o", fused(p + "self_attn.o_proj.weight"), small(p + "self_attn.o_proj.bias")),
                    small(p + "post_attention_layernorm.weight"),
                    linear(f"layers.{i}.gate_up", fused(p + "mlp.gate_proj.weight", p + "mlp.up_proj.weight")),
                    linear(f"layers.{i}.down", fused(p + "mlp.down_proj.weight")),
                )
            )
            if packing and (i + 1) % max(1, cfg.num_hidden_layers // 4) == 0:
                log.info("packed %d of %d layers", i + 1, cfg.num_hidden_layers)
        # rotary tables from the model's own rotary module, so every rope variant is honoured;
        # sin is signed (-sin over the first half) so that rotate_half becomes a swap of halves
        device = self.embed.device
        positions = torch.arange(max_positions, device=device)[None]
        probe = torch.zeros(1, dtype=compute_dtype, device=device)
        cos, sin = type(model.model.rotary_emb)(config=cfg).to(device)(probe, positions)
        half = self.head_dim // 2
        self.cos = cos[0].contiguous()
        self.sin = torch.cat((-sin[0, :, :half], sin[0, :, half:]), dim=-1)
        # fp32 on a CPU that runs the engine's kernels: one compiled call per small op
        kernels = cpu_kernels.load() if self.embed.device.type == "cpu" and compute_dtype == torch.float32 else None
        self.ops = kernels or TorchOps()
        self.attention_kernels = kernels if self.head_dim in cpu_kernels.ATTENTION_HEAD_DIMS else None

    def linears(self) -> list[Linear]:
        """Every linear layer: the LM head, then each layer's qkv, o, gate_up and down."""
        return [self.lm_head] + [part for layer in self.layers for part in layer if isinstance(part, Linear)]

    def packed(self) -> dict[str, QuantizedWeight]:
        """The 4/8-bit linears by key, as ``packed`` takes them."""
        keys = ["lm_head"] + [f"layers.{i}.{name}" for i in range(len(self.layers)) for name in ("qkv", "o", "gate_up", "down")]
        return {key: linear.quantized for key, linear in zip(keys, self.linears()) if linear.quantized is not None}

    @staticmethod
    def supports(config) -> bool:
        return (
            config.model_type in LEAN_MODEL_TYPES
            and getattr(config, "hidden_act", "silu") == "silu"
            and not getattr(config, "mlp_bias", False)
            and getattr(config, "sliding_window", None) is None
        )

    def forward(self, inputs: StepInputs, cache: KVCache, should_abort: Callable[[], bool] | None = None) -> torch.Tensor | None:
        ops = self.ops
        t = inputs.input_ids.shape[0]
        h = F.embedding(inputs.input_ids, self.embed).to(self.dtype)
        cos, sin = self.cos[inputs.positions], self.sin[inputs.positions]
        nq, d = self.num_heads * self.head_dim, self.head_dim
        nqk = self.num_heads + self.num_kv
        delta = None  # what the last sublayer adds to the residual stream h
        for i, (ln1, qkv_proj, o_proj, ln2, gate_up_proj, down_proj) in enumerate(self.layers):
            if should_abort is not None and 2 * i < len(self.layers) and should_abort():
                return None  # only in the first half: a step past it is cheaper to finish
            h, x = ops.add_rms_norm(h, delta, ln1, self.eps)
            qkv = qkv_proj(x)
            ops.rotary(qkv, nqk, d, cos, sin)  # on queries and keys at once
            q = qkv[:, :nq].view(t, self.num_heads, d)
            kv = qkv[:, nq:].view(t, 2, self.num_kv, d)
            a = paged_attention(q, kv, i, cache, inputs.meta, self.scale, self.attention_kernels)
            h, x = ops.add_rms_norm(h, o_proj(a.view(t, nq)), ln2, self.eps)
            delta = down_proj(ops.silu_mul(gate_up_proj(x)))
        h = h[inputs.logits_indices] + delta[inputs.logits_indices]
        return self.lm_head(ops.add_rms_norm(h, None, self.final_norm, self.eps)[1])


class TorchOps:
    """The lean forward's small ops in plain torch (GPUs, bf16 compute, CPUs without the kernels).

    :class:`app.kernels.cpu_kernels.CpuKernels` has the same methods, one compiled call each.
    """

    @staticmethod
    def add_rms_norm(h: torch.Tensor, delta: torch.Tensor | None, weight: torch.Tensor,
                     eps: float) -> tuple[torch.Tensor, torch.Tensor]:
        if delta is not None:
            h = h + delta
        return h, F.rms_norm(h, (h.shape[-1],), weight, eps)

    @staticmethod
    def rotary(x: torch.Tensor, heads: int, head_dim: int, cos: torch.Tensor, sin: torch.Tensor) -> None:
        # rotate_half(x) * sin == roll(x, half) * [-sin, sin]: one roll instead of slices, neg and cat
        rotated = x[:, : heads * head_dim].view(x.shape[0], heads, head_dim)
        rotated.copy_(rotated * cos[:, None] + rotated.roll(head_dim // 2, -1) * sin[:, None])

    @staticmethod
    def silu_mul(gate_up: torch.Tensor) -> torch.Tensor:
        gate, up = gate_up.chunk(2, dim=-1)
        return F.silu(gate) * up


__all__ = ["LeanLlama", "TorchOps"]
