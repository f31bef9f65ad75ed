"""One batched forward per step over the paged KV cache.

Two paths share the packed step layout and :func:`paged_attention`:
- the lean forward for the Llama family (:class:`app.engine.lean_llama.LeanLlama`), several times faster
  on a CPU than the HF module tree;
- a generic path for every other architecture: the HF model itself, with our attention function
  registered in transformers' attention interface so it reads and writes the same cache.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

import torch
from transformers import AttentionInterface, AutoConfig, AutoModelForCausalLM, GenerationConfig

from app.device import cpu_flags, resolve_dtype
from app.engine.attention import StepInputs, StepMetadata, paged_attention
from app.engine.kv_cache import KVCache, KVLayout
from app.engine.lean_llama import LeanLlama
from app.engine.weights import CheckpointTensors, ModelTensors, PackedCache
from app.kernels import cpu_kernels

log = logging.getLogger(__name__)

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
            "LLM %s on %s (%s compute, %s weights, %.0f MiB per step), %s forward, "
            "KV cache %d blocks x %d tokens in %s (%.0f MiB)",
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
