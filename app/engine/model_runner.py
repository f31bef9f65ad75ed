"""One batched forward per step over the paged KV cache.

Two paths share the packed step layout and :func:`paged_attention`:
- a lean forward for the Llama family (Llama, SmolLM, Qwen2, Mistral without sliding window):
  fused q/k/v and gate/up weights taken from the loaded HF model, precomputed rotary tables,
  no per-layer Python objects beyond what the maths needs. Per-step dispatch, not arithmetic,
  dominates small models on CPU, so this is several times faster than the HF module tree.
- a generic path for every other architecture: the HF model itself, with our attention function
  registered in transformers' attention interface so it reads and writes the same cache.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

import torch
import torch.nn.functional as F
from transformers import AttentionInterface, AutoConfig, AutoModelForCausalLM, GenerationConfig

from app.device import cpu_flags, resolve_dtype
from app.engine.attention import StepInputs, StepMetadata, paged_attention
from app.kernels import cpu_kernels
from app.engine.kv_cache import KVCache, KVLayout
from app.engine.weights import CheckpointTensors, ModelTensors, PackedCache
from app.kernels.linear import Linear
from app.kernels.quantize import QuantizedWeight

log = logging.getLogger(__name__)

LEAN_MODEL_TYPES = {"llama", "qwen2", "mistral"}
ATTENTION_NAME = "voicechat_paged"


def _hf_paged_attention(module, query, key, value, attention_mask, scaling=None, dropout=0.0, **kwargs):
    """transformers attention-interface adapter: [1, H, T, D] in, [1, T, H, D] out."""
    out = paged_attention(
        query[0].transpose(0, 1),
        torch.stack((key[0], value[0]), dim=1).transpose(0, 2),
        module.layer_idx,
        kwargs["voicechat_cache"],
        kwargs["voicechat_meta"],
        scaling if scaling is not None else module.head_dim**-0.5,
    )
    return out.unsqueeze(0), None


AttentionInterface.register(ATTENTION_NAME, _hf_paged_attention)


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


def compute_dtype(
    setting: str, model_path: str | Path, device: torch.device, *, lean: bool, half_weights: bool,
    weight_bits: str = "16",
) -> torch.dtype:
    """The LLM's compute dtype for the ``llm_dtype`` setting.

    'auto' is ``resolve_dtype``'s answer, except on a CPU where the CPU kernels run the lean forward
    over weights they keep narrow: 4/8-bit weights (``weight_bits`` not '16'; any checkpoint, any
    CPU with the kernels, as only they read packed weights) or a 16-bit checkpoint kept in 16 bits.
    There fp32 compute over the narrow weights decodes faster than oneDNN's bf16 even where the CPU
    has bf16 arithmetic (docs/benchmarks.md). With 16-bit weights, CPUs with AMX keep bf16: not measured.
    """
    chosen = resolve_dtype(setting, device)
    quantized = weight_bits != "16"
    if setting != "auto" or device.type != "cpu" or chosen == torch.float32 or not (lean and (half_weights or quantized)):
        return chosen
    if "amx_bf16" in cpu_flags() and not quantized:
        return chosen
    config = AutoConfig.from_pretrained(str(model_path))
    checkpoint = getattr(config, "dtype", None) or getattr(config, "torch_dtype", None)
    half_checkpoint = str(checkpoint).removeprefix("torch.") in ("bfloat16", "float16")
    if not LeanLlama.supports(config) or not (quantized or half_checkpoint):
        return chosen
    return torch.float32 if cpu_kernels.load() is not None else chosen


def _generation_config(model_path: str | Path) -> GenerationConfig:
    """The folder's generation config (its end-of-turn tokens), or the model config's defaults."""
    try:
        return GenerationConfig.from_pretrained(str(model_path))
    except OSError:
        return GenerationConfig.from_model_config(AutoConfig.from_pretrained(str(model_path)))


class ModelRunner:
    """Loads the model, owns the KV cache tensors, runs one packed step."""

    def __init__(
        self,
        model_path: str | Path,
        *,
        device: torch.device,
        dtype: torch.dtype,
        kv_cache_bytes: int,
        block_size: int,
        max_seq_len: int,
        lean: bool = True,
        half_weights: bool = True,
        weight_bits: str = "16",
        kv_dtype: torch.dtype | None = None,
    ) -> None:
        """``weight_bits`` '4', '8' or 'auto' keeps the lean forward's linear weights quantized where the
        CPU kernels run (:class:`app.kernels.linear.Linear`). ``kv_dtype`` None: bf16 where the CPU
        kernels attend (fp32 compute; half the bytes per token to hold and to read at every step), else
        the compute dtype."""
        self.device = device
        self.dtype = dtype
        config = AutoConfig.from_pretrained(str(model_path))
        lean = lean and LeanLlama.supports(config)
        # on a CPU the lean forward reads a local folder tensor by tensor: the whole checkpoint is never in
        # memory at once, and packed 4/8-bit linears come from the cache after the first start
        tensors = CheckpointTensors.of(model_path) if lean and device.type == "cpu" else None
        if tensors is not None:
            with torch.device("meta"):
                self.model = AutoModelForCausalLM.from_config(config)
            self.model.generation_config = _generation_config(model_path)
        else:
            self.model = AutoModelForCausalLM.from_pretrained(str(model_path), dtype=dtype).to(device).eval()
        cfg = self.model.config
        self.config = cfg
        head_dim = getattr(cfg, "head_dim", None) or cfg.hidden_size // cfg.num_attention_heads
        self.lean: LeanLlama | None = None
        if lean:
            bits = weight_bits if weight_bits == "auto" else int(weight_bits)
            packs = tensors is not None and weight_bits != "16" and dtype == torch.float32 and cpu_kernels.load() is not None
            cache = PackedCache(tensors.files, weight_bits) if packs else None
            packed = cache.load() if cache is not None else None
            if cache is not None and packed is None:
                log.info("packing %s's weights at 4/8 bits (first start only: cached in %s)", Path(str(model_path)).name,
                         cache.path.parent)
            with torch.inference_mode():
                self.lean = LeanLlama(self.model, tensors or ModelTensors(self.model), max_seq_len + 1,
                                      compute_dtype=dtype, half_weights=half_weights, weight_bits=bits, packed=packed)
            if cache is not None and packed is None and (packed := self.lean.packed()):
                cache.save(packed)
            if tensors is None:  # the HF modules are no longer used; keep only what the lean forward holds
                for layer in self.model.model.layers:
                    att, mlp = layer.self_attn, layer.mlp
                    att.q_proj = att.k_proj = att.v_proj = att.o_proj = mlp.gate_proj = mlp.up_proj = mlp.down_proj = None
        else:
            self.model.set_attn_implementation(ATTENTION_NAME)
        kernels_attend = self.lean is not None and self.lean.attention_kernels is not None
        if kv_dtype is None:
            kv_dtype = torch.bfloat16 if kernels_attend else dtype
        if kernels_attend and kv_dtype not in (torch.float32, torch.bfloat16):
            self.lean.attention_kernels = None  # the kernel reads fp32 or bf16 only
        self.layout = KVLayout(cfg.num_hidden_layers, cfg.num_key_value_heads, head_dim, kv_dtype)
        self.cache = KVCache(self.layout, kv_cache_bytes, block_size, device)
        log.info(
            "LLM %s on %s (%s compute, %s weights, %.0f MiB per step), %s forward, KV cache %d blocks x %d tokens in %s (%.0f MiB)",
            cfg.model_type,
            device,
            str(dtype).removeprefix("torch."),
            self.weight_format,
            self.weight_bytes / 2**20,
            "lean" if self.lean else "generic",
            self.cache.num_blocks,
            block_size,
            str(kv_dtype).removeprefix("torch."),
            self.cache.nbytes / 2**20,
        )

    @property
    def weight_format(self) -> str:
        """How the linear weights are streamed at each step: 'q4', 'q4+q8', 'bfloat16', ..."""
        if self.lean is None:
            return str(self.dtype).removeprefix("torch.")
        formats = {linear.weight_format for linear in self.lean.linears()}
        return "+".join(sorted(formats))

    @property
    def weight_bytes(self) -> int:
        """Bytes of weights a decode step streams: every linear once (as stored), plus the looked-up embedding rows
        (negligible); the generic forward: every parameter at the compute dtype."""
        if self.lean is None:
            unique = {p.data_ptr(): p.numel() * p.element_size() for p in self.model.parameters()}
            return sum(unique.values())
        return sum(linear.weight_bytes for linear in self.lean.linears())

    @property
    def vocab_size(self) -> int:
        return self.config.vocab_size

    def allocate_cache(self, num_blocks: int) -> None:
        """Hold exactly ``num_blocks`` KV blocks: a draft model's cache, addressed by the target's block tables."""
        block_size = self.cache.block_size
        self.cache = None  # the old tensor goes before the new one is allocated
        self.cache = KVCache(self.layout, num_blocks * self.layout.bytes_per_token * block_size, block_size, self.device)

    @torch.inference_mode()
    def run(self, inputs: StepInputs, should_abort: Callable[[], bool] | None = None) -> torch.Tensor | None:
        """Logits (fp32) of the rows in ``inputs.logits_indices``.

        The lean forward polls ``should_abort`` between layers of its first half and returns None
        when it says so:
        the step is dropped (nothing was committed; the keys/values it wrote are rewritten when
        the same tokens run again), so an urgent request need not wait for a long step to end.
        """
        if self.lean is not None:
            logits = self.lean.forward(inputs, self.cache, should_abort)
        else:
            logits = self._generic_forward(inputs)
        return None if logits is None else logits.float()

    def _generic_forward(self, inputs: StepInputs) -> torch.Tensor:
        out = self.model(
            input_ids=inputs.input_ids[None],
            position_ids=inputs.positions[None],
            use_cache=False,
            logits_to_keep=inputs.logits_indices,
            voicechat_cache=self.cache,
            voicechat_meta=inputs.meta,
        )
        return out.logits[0]


__all__ = ["ModelRunner", "StepMetadata"]
