"""The end-of-turn score on the real engine (the packaged test model, fp32) against transformers' own logits."""

from __future__ import annotations

from functools import partial

import pytest
import pytest_asyncio
import torch
from engine_helpers import collect

from app.engine import Priority, SamplingParams, create_backend
from app.engine.prompt import render
from app.answers.conversions import with_conversion_hint
from app.answers.notes import PERSON_NOTE, WITHOUT_TOOLS, add_first
from app.answers.spelling import with_spelling_hint
from app.vad.end_of_turn import EndOfTurnScorer

pytestmark = pytest.mark.asyncio(loop_scope="session")


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def engine(settings, prepared):
    update = {"llm_dtype": "float32", "llm_kv_dtype": "float32", "device": "cpu", "llm_weight_bits": "16"}
    eng = create_backend(settings.model_copy(update=update), model_path=str(prepared.llm_dir))
    await eng.start()
    yield eng
    await eng.stop()


def hf_probabilities(hf_model, ids: list[int], wanted: tuple[int, ...]) -> list[float]:
    with torch.inference_mode():
        logits = hf_model(torch.tensor([ids])).logits[0, -1].float()
    return logits.softmax(-1)[list(wanted)].tolist()


SYSTEM = [{"role": "system", "content": "You are a helpful voice assistant."}]


async def test_token_probs_equal_transformers_softmax_and_no_text_is_generated(engine, hf_model):
    scorer = EndOfTurnScorer(engine, engine.tokenizer)
    ids = render(engine.tokenizer, scorer.messages(SYSTEM, "what is the capital of france"))
    assert engine.tokenizer.decode(ids).endswith("<|im_start|>user\nwhat is the capital of france")  # left open
    tokens, _, last = await collect(engine, prompt_token_ids=ids, priority=Priority.VOICE,
                                    params=SamplingParams(max_tokens=1, token_probs=scorer.end_ids))
    assert len(tokens) == 1 and last.finished and last.error is None
    assert list(last.token_probs) == list(scorer.end_ids)
    assert list(last.token_probs.values()) == pytest.approx(hf_probabilities(hf_model, ids, scorer.end_ids), rel=1e-3, abs=1e-7)


async def test_the_score_separates_a_finished_question_from_an_unfinished_one(engine):
    scorer = EndOfTurnScorer(engine, engine.tokenizer)
    finished = await scorer.score(SYSTEM, "What is the capital of France?")
    unfinished = await scorer.score(SYSTEM, "what is the capital of")
    assert finished is not None and unfinished is not None
    assert finished > 100 * unfinished, (finished, unfinished)
    assert await scorer.score(SYSTEM, "what is the capital of france") == finished  # normalised and cached


async def test_a_score_after_a_reply_prefills_only_the_new_words(engine):
    """The score's prompt is the next reply's up to the user's words: the last reply's blocks hold the rest."""
    scorer = EndOfTurnScorer(engine, engine.tokenizer)
    conversation = [*SYSTEM, {"role": "user", "content": "Tell me about the moon in a few sentences."}]
    tokens, text, _ = await collect(engine, messages=conversation, priority=Priority.VOICE,
                                    params=SamplingParams(max_tokens=48, temperature=0.0))
    conversation.append({"role": "assistant", "content": text})
    before = engine.stats()["prefix_hit_tokens"]
    assert await scorer.score(conversation, "and how far away is it") is not None
    reused = engine.stats()["prefix_hit_tokens"] - before
    ids = render(engine.tokenizer, scorer.messages(conversation, "and how far away is it"))
    assert reused >= len(ids) - 2 * engine.settings.kv_block_size - 16, (reused, len(ids))  # the words and a block or two


async def test_a_token_id_outside_the_vocabulary_is_an_error(engine):
    _, _, last = await collect(engine, prompt_token_ids=[1, 2, 3], params=SamplingParams(max_tokens=1, token_probs=(10**9,)))
    assert last.finish_reason == "error" and "outside the vocabulary" in last.error


async def test_a_reply_reads_the_score_after_the_users_words_in_its_own_prefill(engine, hf_model):
    """The score a prefill-only request on the open message gives, read by the reply to the closed one: the same
    logits, at the position after the words (before the transcript's trailing punctuation); the reply is unchanged."""
    scorer = EndOfTurnScorer(engine, engine.tokenizer)
    conversation = [*SYSTEM, {"role": "user", "content": "What is the capital of France?"}]
    probe = SamplingParams(max_tokens=12, token_probs=scorer.end_ids, token_probs_at="user_words_end")
    await collect(engine, messages=conversation, params=SamplingParams(max_tokens=1))  # both below read it cached
    first = None
    tokens: list[int] = []
    async for delta in engine.generate(messages=conversation, params=probe, priority=Priority.VOICE):
        first = first or delta
        tokens += delta.token_ids
    assert first is not None and list(first.token_probs) == list(scorer.end_ids)
    opened = render(engine.tokenizer, [*SYSTEM, {"role": "user", "content": "What is the capital of France", "prefix": True}])
    expected = hf_probabilities(hf_model, opened, scorer.end_ids)
    assert list(first.token_probs.values()) == pytest.approx(expected, rel=1e-3, abs=1e-7)
    plain, _, _ = await collect(engine, messages=conversation, params=SamplingParams(max_tokens=12))
    assert tokens == plain
    # the server's notes (a spelling question's letters, the answer beside a question the model answers "Yes" by
    # habit or a request only a tool meets, a conversion's figure) are not the user's words: the score is read before them
    without_tools = partial(add_first, WITHOUT_TOOLS)
    for hint, question in ((with_spelling_hint, "How do you spell necessary?"), (PERSON_NOTE.add, "Are you human?"),
                           (without_tools, "Is it the weekend?"), (without_tools, "Remind me to call Anna at nine."),
                           (with_conversion_hint, "How many hours are in two days?")):
        asked = hint([*SYSTEM, {"role": "user", "content": question}])
        assert asked[-1]["content"] != question
        stream = engine.generate(messages=asked, params=probe, priority=Priority.VOICE)
        first = await anext(stream)
        await stream.aclose()
        opened = render(engine.tokenizer, [*SYSTEM, {"role": "user", "content": question.rstrip("?."), "prefix": True}])
        expected = hf_probabilities(hf_model, opened, scorer.end_ids)
        assert list(first.token_probs.values()) == pytest.approx(expected, rel=1e-3, abs=1e-7), question
    # nothing to read where the messages do not end in a user's words
    continued = [*conversation, {"role": "assistant", "content": "Paris", "prefix": True}]
    _, _, last = await collect(engine, messages=continued, params=SamplingParams(max_tokens=1, token_probs=scorer.end_ids,
                                                                                 token_probs_at="user_words_end"))
    assert last.error is None and last.token_probs is None
