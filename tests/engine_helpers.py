"""Shared pieces of the engine tests: prompts, the HF reference model, request helpers."""

from __future__ import annotations

import asyncio

import torch

from app.engine import Priority
from app.engine.prompt import render

PROMPTS = [
    "What is the capital of France?",
    "Name three colours of the rainbow.",
    "Write a haiku about the sea.",
    "How many legs does a spider have?",
]
SYSTEM = "You are a helpful assistant."


def chat(text: str) -> list[dict]:
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": text}]


def prompt_ids(engine, text: str) -> list[int]:
    return render(engine.tokenizer, chat(text))


def hf_greedy(hf_model, ids: list[int], max_tokens: int, ignore_eos: bool = False) -> list[int]:
    no_stop = {"eos_token_id": []} if ignore_eos else {}
    with torch.inference_mode():
        out = hf_model.generate(torch.tensor([ids]), max_new_tokens=max_tokens, do_sample=False, pad_token_id=2, **no_stop)
    return out[0, len(ids) :].tolist()


async def collect(engine, *, progress: list | None = None, **kwargs):
    """Run one request; returns (token ids, text, last delta)."""
    kwargs.setdefault("priority", Priority.TEXT)
    tokens: list[int] = []
    text = ""
    async for delta in engine.generate(**kwargs):
        tokens += delta.token_ids
        text += delta.text
        if progress is not None:
            progress.append(len(tokens))
        if delta.finished:
            return tokens, text, delta
    raise AssertionError("stream ended without a finished delta")


async def wait_until(predicate, timeout: float = 120.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not predicate():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.005)
