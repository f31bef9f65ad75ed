"""The engine over 4/8-bit weights against transformers' own model over the same quantized weights
(dequantized into it) with each linear's input rounded to int8 per group as the kernels round it: the
engine's greedy tokens are the reference's choices, so the kernels add nothing of their own.

Rounding to int8 is a step function: fp32 sums taken in another order move a few inputs across a
rounding boundary, which moves logits by ~1% of their range. So each greedy token must be the
reference's best up to that margin, and most exactly so: where the reference's top two lie within a fraction of a
percent of the range, which is first depends on the order of the sums (on an Intel AVX-512 CPU 5 of 40 tokens
were such ties, within 0.2% of the range, with the kernels before and after their AVX-512 tiles)."""

from __future__ import annotations

import pytest
import pytest_asyncio
import torch
from transformers import AutoModelForCausalLM

from app.engine import SamplingParams, create_backend
from app.kernels import cpu_kernels
import torch.nn.functional as F

from app.kernels.quantize import dequantize, round_activations
from engine_helpers import PROMPTS, SYSTEM, collect, prompt_ids

pytestmark = [
    pytest.mark.asyncio(loop_scope="session"),
    pytest.mark.skipif(cpu_kernels.load() is None, reason="quantized weights need the CPU kernels"),
]


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def engine(settings, prepared):
    update = {"llm_dtype": "float32", "llm_kv_dtype": "float32", "device": "cpu", "system_prompt": SYSTEM,
              "llm_weight_bits": "auto"}
    eng = create_backend(settings.model_copy(update=update), model_path=str(prepared.llm_dir))
    await eng.start()
    yield eng
    await eng.stop()


def _weight(linear) -> torch.Tensor:
    return dequantize(linear.quantized)


def _as_the_kernels_multiply(module: torch.nn.Linear) -> None:
    def forward(x: torch.Tensor) -> torch.Tensor:
        rows = round_activations(x.reshape(-1, x.shape[-1])).view_as(x)
        return F.linear(rows, module.weight, module.bias)

    module.forward = forward


@pytest.fixture(scope="module")
def reference(engine, prepared):
    """transformers' model in fp32 with every linear replaced by the engine's dequantized weight."""
    model = AutoModelForCausalLM.from_pretrained(str(prepared.llm_dir), dtype=torch.float32).eval()
    lean = engine.runner.lean
    q_width, kv_width = lean.num_heads * lean.head_dim, lean.num_kv * lean.head_dim
    with torch.no_grad():
        for layer, (_, qkv, o, _, gate_up, down) in zip(model.model.layers, lean.layers):
            att, mlp = layer.self_attn, layer.mlp
            q, k, v = _weight(qkv).split([q_width, kv_width, kv_width])
            gate, up = _weight(gate_up).chunk(2)
            for module, weight in ((att.q_proj, q), (att.k_proj, k), (att.v_proj, v), (att.o_proj, _weight(o)),
                                   (mlp.gate_proj, gate), (mlp.up_proj, up), (mlp.down_proj, _weight(down))):
                module.weight.copy_(weight)
                _as_the_kernels_multiply(module)
        # the LM head reads the quantized copy while the embedding lookup keeps the stored rows: untie them
        model.lm_head.weight = torch.nn.Parameter(_weight(lean.lm_head))
        _as_the_kernels_multiply(model.lm_head)
    return model


async def test_the_packaged_model_keeps_its_4_bit_weights_at_4_bits(engine):
    runner = engine.runner
    formats = [part.weight_format for layer in runner.lean.layers for part in layer[1:] if hasattr(part, "weight_format")]
    assert formats.count("q4") > len(formats) // 2  # the GGUF's 4-bit blocks; the finer tensors at 8 bits
    assert set(formats) <= {"q4", "q8"}
    assert engine.stats()["weight_format"] in ("q4", "q4+q8")


async def test_quantized_greedy_tokens_are_the_reference_models_choices(engine, reference):
    exact = total = 0
    for text in PROMPTS[:3]:
        ids = prompt_ids(engine, text)
        tokens, _, _ = await collect(engine, prompt_token_ids=ids, params=SamplingParams(max_tokens=16))
        with torch.inference_mode():
            logits = reference(torch.tensor([ids + tokens])).logits[0, len(ids) - 1 : -1]
        chosen = logits.gather(1, torch.tensor(tokens)[:, None])[:, 0]
        best = logits.max(-1).values
        margin = 0.02 * (best - logits.min(-1).values)
        assert bool((chosen >= best - margin).all()), (text, (best - chosen).tolist())
        exact += int((chosen == best).sum())
        total += len(tokens)
    assert exact >= 0.8 * total


async def test_packed_weights_are_cached_for_the_next_start(engine, prepared):
    from app.engine.weights import CheckpointTensors, PackedCache

    files = CheckpointTensors.of(prepared.llm_dir).files
    cache = PackedCache(files, "auto")
    assert cache.path.is_file()
    loaded = cache.load()
    packed = engine.runner.lean.packed()
    assert loaded.keys() == packed.keys()
    for key, weight in packed.items():
        assert loaded[key].bits == weight.bits and torch.equal(loaded[key].records, weight.records)
    assert PackedCache(files, "8").path != cache.path  # another setting packs anew
