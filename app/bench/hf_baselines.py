"""The baselines the engine is measured against: plain transformers generation on the same model.

Each function runs the seed workload (greedy, exactly ``new_tokens`` per request, EOS ignored)
and returns requests per second. They share one loaded model so that only the batching differs.
"""

from __future__ import annotations

import logging
import time

import torch

log = logging.getLogger(__name__)


def _sync(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize(device)


@torch.inference_mode()
def qps_serial(model, prompts: list[list[int]], new_tokens: int, pad_token_id: int) -> float:
    """One ``generate`` call per request, one after the other."""
    device = model.device
    start = time.perf_counter()
    for prompt in prompts:
        ids = torch.tensor([prompt], device=device)
        out = model.generate(ids, attention_mask=torch.ones_like(ids), max_new_tokens=new_tokens,
                             min_new_tokens=new_tokens, do_sample=False, pad_token_id=pad_token_id)
        assert out.shape[1] - ids.shape[1] == new_tokens
    _sync(device)
    return len(prompts) / (time.perf_counter() - start)


def left_padded(prompts: list[list[int]], pad_token_id: int, device: torch.device) -> tuple[torch.Tensor, torch.Tensor]:
    """Batch prompts of different lengths the way decoder-only ``generate`` needs: padding on the left."""
    width = max(len(p) for p in prompts)
    ids = torch.full((len(prompts), width), pad_token_id, dtype=torch.long)
    mask = torch.zeros((len(prompts), width), dtype=torch.long)
    for row, prompt in enumerate(prompts):
        ids[row, width - len(prompt):] = torch.tensor(prompt)
        mask[row, width - len(prompt):] = 1
    return ids.to(device), mask.to(device)


@torch.inference_mode()
def qps_fixed(model, prompts: list[list[int]], new_tokens: int, pad_token_id: int, batch: int) -> float:
    """Static batching: groups of ``batch`` requests padded together; a group ends when its last row does."""
    device = model.device
    start = time.perf_counter()
    for first in range(0, len(prompts), batch):
        ids, mask = left_padded(prompts[first:first + batch], pad_token_id, device)
        out = model.generate(ids, attention_mask=mask, max_new_tokens=new_tokens, min_new_tokens=new_tokens,
                             do_sample=False, pad_token_id=pad_token_id)
        assert out.shape[1] - ids.shape[1] == new_tokens
    _sync(device)
    return len(prompts) / (time.perf_counter() - start)


@torch.inference_mode()
def qps_hf_continuous(model, prompts: list[list[int]], new_tokens: int, pad_token_id: int, max_batch: int) -> float:
    """transformers' own continuous batching (``generate_batch``, paged attention), at most ``max_batch`` per step.

    A short untimed call first builds and warms a kept manager, so that its one-off set-up (cache
    allocation, warm-up batches at the largest shapes) is not counted; the timed call reuses it.
    """
    from transformers import GenerationConfig
    from transformers.generation.configuration_utils import ContinuousBatchingConfig

    config = GenerationConfig(max_new_tokens=new_tokens, do_sample=False, eos_token_id=None, pad_token_id=pad_token_id)
    # Sized for the workload (by default it takes 90% of the free memory, on a CPU: of the whole machine).
    longest = max(len(p) for p in prompts) + new_tokens
    page = ContinuousBatchingConfig().page_size
    batching = ContinuousBatchingConfig(max_requests_per_batch=max_batch, max_batch_tokens=512,
                                        num_blocks=len(prompts) * -(-longest // page))
    model.generate_batch(prompts[:max_batch], generation_config=config, continuous_batching_config=batching,
                         max_new_tokens=new_tokens, persistent_manager=True)
    start = time.perf_counter()
    results = model.generate_batch(prompts, generation_config=config, continuous_batching_config=batching,
                                   max_new_tokens=new_tokens, warmup=False)
    _sync(model.device)
    elapsed = time.perf_counter() - start
    model.destroy_cached_continuous_batching_manager()
    lengths = {len(r.generated_tokens) for r in results.values()}
    if len(results) != len(prompts) or lengths != {new_tokens}:
        raise RuntimeError(f"generate_batch returned {len(results)} results with lengths {lengths}")
    return len(prompts) / elapsed
