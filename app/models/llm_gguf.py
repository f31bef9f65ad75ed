"""GGUF -> ordinary transformers folder (bf16 safetensors, tokenizer, chat template, generation config).

transformers dequantises GGUF on load; the result is saved once so later loads are plain and fast.
A GGUF split over several packages is first joined (checksum checked while joining) into a
temporary file inside the folder being built, which is deleted as soon as the weights are loaded.
"""

from __future__ import annotations

from pathlib import Path

from app.models.errors import ModelPreparationError
from app.models.sources import ModelSource


def convert_gguf_to_transformers(
    source: ModelSource,
    destination: Path,
    progress: bool = False,
    *,
    name: str = "LLM",
    stop_tokens: tuple[str, ...] = ("<|im_end|>",),
) -> None:
    """Write a transformers model folder for the GGUF ``source`` (one file or parts) at ``destination``.

    ``stop_tokens`` start with the chat template's end-of-turn token: it becomes the tokenizer's eos,
    and the saved generation config stops on all of them, so a reply ends with the assistant's turn.
    """
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer, GgufConfig
    from transformers.utils import logging as hf_logging

    if progress:
        hf_logging.enable_progress_bar()
    else:
        hf_logging.disable_progress_bar()

    destination.mkdir(parents=True, exist_ok=True)
    joined: Path | None = None
    if len(source.parts) == 1:
        source.verify()
        gguf_path = source.parts[0]
    else:
        joined = gguf_path = destination / ".joined.gguf"
        _say(progress, f"{name}: joining {len(source.parts)} parts ({source.size / 1e6:.0f} MB), checking sha256")
        source.join(gguf_path, progress, description=f"{name}: joining")
    try:
        _say(progress, f"{name}: dequantising the GGUF to bf16")
        tokenizer = AutoTokenizer.from_pretrained(gguf_path.parent, gguf_file=gguf_path.name)
        # Asked for dequantised: the model is then an ordinary bf16 one with no GGUF quantizer attached (nothing to
        # strip before saving), and transformers does not warn, wrongly for these architectures, that it keeps
        # the weights packed.
        model = AutoModelForCausalLM.from_pretrained(gguf_path.parent, gguf_file=gguf_path.name, dtype=torch.bfloat16,
                                                     quantization_config=GgufConfig(dequantize=True))
    finally:
        if joined is not None:
            joined.unlink(missing_ok=True)  # the weights are in memory now; free the disk before saving
    _stop_at_end_of_turn(model, tokenizer, stop_tokens, source)
    _say(progress, f"{name}: saving the bf16 folder")
    model.save_pretrained(destination, safe_serialization=True)
    tokenizer.save_pretrained(destination)
    model.generation_config.save_pretrained(destination)


def _stop_at_end_of_turn(model, tokenizer, stop_tokens: tuple[str, ...], source: ModelSource) -> None:
    """Make the end-of-turn token the tokenizer's eos and the stop tokens the generation config's eos ids."""
    from transformers import GenerationConfig

    ids = [tokenizer.convert_tokens_to_ids(token) for token in stop_tokens]
    if not tokenizer.chat_template or any(not isinstance(i, int) or i == tokenizer.unk_token_id for i in ids):
        raise ModelPreparationError(
            f"{source.parts[0].name} lacks a chat template or one of the tokens {', '.join(stop_tokens)} "
            f"(different package): reinstall it: {source.install}"
        )
    config = model.generation_config if model.generation_config is not None else GenerationConfig()
    previous = config.eos_token_id if isinstance(config.eos_token_id, list) else [config.eos_token_id]
    stops = list(dict.fromkeys(i for i in [*ids, *previous, tokenizer.eos_token_id] if i is not None))
    config.eos_token_id = stops if len(stops) > 1 else stops[0]
    if config.pad_token_id is None and tokenizer.pad_token_id is not None:
        config.pad_token_id = tokenizer.pad_token_id
    tokenizer.eos_token = stop_tokens[0]
    model.generation_config = config


def _say(progress: bool, message: str) -> None:
    if progress:
        print(message, flush=True)
