"""GGUF -> ordinary transformers folder (bf16 safetensors, tokenizer, chat template).

transformers dequantises GGUF on load; the result is saved once so later loads are plain and fast.
"""

from __future__ import annotations

from pathlib import Path

from app.models.sources import ModelSource


def convert_gguf_to_transformers(source: ModelSource, destination: Path, progress: bool = False) -> None:
    """Write a transformers model folder for the single-file GGUF ``source`` at ``destination``."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from transformers.utils import logging as hf_logging

    if progress:
        hf_logging.enable_progress_bar()
    else:
        hf_logging.disable_progress_bar()

    (gguf_path,) = source.parts
    tokenizer = AutoTokenizer.from_pretrained(gguf_path.parent, gguf_file=gguf_path.name)
    model = AutoModelForCausalLM.from_pretrained(gguf_path.parent, gguf_file=gguf_path.name, dtype=torch.bfloat16)
    # The weights are now plain bf16 tensors; forget the GGUF origin so the folder loads as a normal model.
    model.hf_quantizer = None
    model.is_quantized = False
    if hasattr(model.config, "quantization_config"):
        del model.config.quantization_config
    model.save_pretrained(destination, safe_serialization=True)
    tokenizer.save_pretrained(destination)
    if model.generation_config is not None:
        model.generation_config.save_pretrained(destination)
