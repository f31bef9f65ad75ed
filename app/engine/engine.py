"""The local engine: an asyncio-facing API over a step loop that runs in its own thread.

Requests enter from the event loop (``generate`` has their prompts built and tokenised on a thread of
their own, so the loop never waits for a long conversation, then queues them); each step of the engine
thread is: the scheduler picks the batch, one packed forward samples its tokens, the scheduler
appends them and finishes the requests that end (as in nano-vllm), and the deltas go back to each
request's event loop. The forward runs without the lock, so ``cancel`` and new requests never
wait for it; a cancelled request's blocks are free the moment ``cancel`` returns.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
import uuid
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import torch
from transformers import AutoTokenizer

from app.answers.notes import user_words
from app.config import LOOKUP_DRAFT, Settings
from app.engine.api import Delta, Priority, SamplingParams
from app.engine.attention import StepInputs, prepare_step
from app.engine.detokenizer import IncrementalDetokenizer
from app.engine.draft_vocab import ShortlistHead, shortlist_ids
from app.engine.kv_cache import BlockManager
from app.engine.metrics import EngineMetrics
from app.cpu_share import speech_activity, engine_work
from app.device import use_torch_threads, working_device
from app.handoff import resolve_from_thread
from app.engine.model_runner import ModelRunner, compute_dtype
from app.engine.phrase_limit import TokenTexts
from app.engine.prompt import PromptBuilder, PromptTooLongError, render
from app.engine.sampling import record_token_probs, sample
from app.engine.scheduler import ScheduledBatch, Scheduler, SchedulerConfig, StepOutcome
from app.engine.sequence import Sequence, Status
from app.engine.tool_calls import ToolsUnsupportedError, call_opening_ids, template_supports_tools
from app.engine.speculative import SpecPlan, Speculator

log = logging.getLogger(__name__)
TRAILING_PUNCTUATION = " \t\n.?!,;:…"  # what a transcript's words may end in (Whisper's sentence marks)


@dataclass(eq=False)
class _Request:
    seq: Sequence
    queue: asyncio.Queue
    loop: asyncio.AbstractEventLoop


def _eos_ids(model, tokenizer) -> set[int]:
    """End-of-turn tokens: the generation config's (what the chat template ends a turn with) and the tokenizer's."""
    ids: set[int] = set()
    eos = getattr(model.generation_config, "eos_token_id", None)
    if isinstance(eos, int):
        ids.add(eos)
    elif eos:
        ids.update(eos)
    if tokenizer.eos_token_id is not None:
        ids.add(tokenizer.eos_token_id)
    return ids


class LocalEngine:
    """Continuous-batching engine over a transformers model (implements ``LLMBackend``)."""

    def __init__(self, settings: Settings, model_path: str | Path, draft_path: str | Path | None = None) -> None:
        """``draft_path``: a draft model of the same tokenizer for speculative decoding (None: none)."""
        self.settings = settings
        self.model_path = model_path
        self.draft_path = draft_path
        self.device = working_device(settings.device)
        self.metrics = EngineMetrics(self.device)
        self._cv = threading.Condition()
        self._requests: dict[str, _Request] = {}
        self._thread: threading.Thread | None = None
        self._threads = self._step_threads = 1  # torch threads of the engine thread: its own, and this step's
        self._stopping = False
        self._started = False
        self._voice_arrived = threading.Event()  # set when a voice request is queued, cleared per step
        self._prompt_thread: ThreadPoolExecutor | None = None  # builds prompts (the one thread using ``prompts`` once started)
        self._preparing: dict[str, bool] = {}  # request id -> cancelled, while its prompt is being built
        self.runner: ModelRunner | None = None
        self.supports_tools = self.floors_calls = False  # known once the tokenizer is loaded
        self.speculator: Speculator | None = None
        self.scheduler: Scheduler | None = None

    # --- lifecycle ---
    async def start(self) -> None:
        if self._started:
            return
        loaded = asyncio.get_running_loop().create_future()
        self._stopping = False
        self._thread = threading.Thread(target=self._run, args=(loaded,), name="llm-engine", daemon=True)
        self._thread.start()
        await loaded
        self._prompt_thread = ThreadPoolExecutor(1, thread_name_prefix="llm-prompt")
        self._started = True

    def _load(self) -> None:
        s = self.settings
        self.tokenizer = AutoTokenizer.from_pretrained(str(self.model_path))
        self.supports_tools = s.tools_allowed and template_supports_tools(self.tokenizer.chat_template)
        self.prompts = PromptBuilder(self.tokenizer)
        self.token_texts = TokenTexts.of(self.tokenizer)
        self.call_openings = call_opening_ids(self.tokenizer, self.token_texts.pieces) if self.supports_tools else ()
        self.floors_calls = bool(self.call_openings)
        dtype = compute_dtype(s.llm_dtype, self.model_path, self.device, lean=s.llm_lean_forward,
                              half_weights=s.llm_half_weights, weight_bits=s.weight_bits)
        self.runner = self._runner(self.model_path, dtype, s.kv_cache_bytes, s.weight_bits)
        self.blocks = BlockManager(self.runner.cache.num_blocks, s.kv_block_size)
        self._warm_up()
        self.speculator = self._speculator() if s.llm_speculative_tokens > 0 else None
        self.scheduler = Scheduler(
            SchedulerConfig(
                max_batch=s.max_batch,
                max_step_tokens=s.llm_max_step_tokens,
                aging_s=s.llm_priority_aging_s,
                itl_target_ms=s.llm_itl_target_ms,
                max_seq_len=s.max_seq_len,
                eos_ids=frozenset(_eos_ids(self.runner.model, self.tokenizer)),
            ),
            self.blocks,
        )
        self.scheduler.lookahead = s.llm_speculative_tokens if self.speculator else 0

    def _runner(self, path: str | Path, dtype: torch.dtype, kv_cache_bytes: int, weight_bits: str) -> ModelRunner:
        s = self.settings
        return ModelRunner(
            path,
            device=self.device,
            dtype=dtype,
            kv_cache_bytes=kv_cache_bytes,
            block_size=s.kv_block_size,
            max_seq_len=s.max_seq_len,
            lean=s.llm_lean_forward,
            half_weights=s.llm_half_weights,
            weight_bits=weight_bits,
            kv_dtype=None if s.llm_kv_dtype == "auto" else getattr(torch, s.llm_kv_dtype),
        )

    def _speculator(self) -> Speculator | None:
        """Speculative decoding with the draft model (``draft_path``) or prompt lookup (``llm_draft_model``), timed
        before the first request; None for neither."""
        s = self.settings
        if self.draft_path is not None:
            draft = self._load_draft()
        elif s.draft_model == LOOKUP_DRAFT:
            draft = None
        else:
            return None
        speculator = Speculator(draft, self.runner, s.llm_speculative_tokens, s.llm_max_step_tokens, s.max_seq_len)
        seq = Sequence("calibrate", list(range(1, 9)), SamplingParams(), Priority.BACKGROUND)
        self.blocks.admit(seq)
        self.blocks.grow(seq, len(seq) + 16)
        speculator.calibrate(self.runner, seq.block_table, len(seq))
        self.blocks.release(seq)
        log.info("speculative decoding with %s: up to %d tokens a step%s", self.draft_path or "prompt lookup",
                 s.llm_speculative_tokens, f", draft KV cache {draft.cache.nbytes / 2**20:.0f} MiB" if draft else "")
        return speculator

    def _load_draft(self) -> ModelRunner:
        """The draft model beside the target: same device and compute dtype, a KV cache of as many blocks
        (the target's block tables address both)."""
        s = self.settings
        draft_tokenizer = AutoTokenizer.from_pretrained(str(self.draft_path))
        if draft_tokenizer.get_vocab() != self.tokenizer.get_vocab():
            raise ValueError(f"draft model {self.draft_path} does not share the tokenizer of {self.model_path}")
        draft = self._runner(self.draft_path, self.runner.dtype, 0, s.llm_draft_weight_bits)
        draft.allocate_cache(self.blocks.num_blocks)
        if s.llm_draft_vocab and draft.lean is not None and ShortlistHead.fits(draft.lean.lm_head):
            head, whole = draft.lean.lm_head, draft.weight_bytes
            ids = shortlist_ids(head.out_features, s.llm_draft_vocab, list(self.tokenizer.added_tokens_decoder))
            draft.lean.lm_head = ShortlistHead(head, ids)
            log.info("the draft proposes among %d of %d tokens: %.0f MiB per step instead of %.0f", len(ids),
                     head.out_features, draft.weight_bytes / 2**20, whole / 2**20)
        return draft

    def _warm_up(self) -> None:
        """One prefill and one decode step before the first request, so one-off costs (kernel selection, weight
        layouts, allocator growth) do not land on a user's first token. The prefill is of the default system prompt
        of a reply without tools (in chunks of a step's tokens, as a request's), left in the prefix cache: the first
        turns after a start without tools of their own do not prefill the prompt that every session shares (several
        users starting at once would each wait for the others' prefills of it too)."""
        s = self.settings
        instructions = s.default_instructions(tools=False)
        system = [{"role": "system", "content": instructions}] if instructions else []
        ids = render(self.tokenizer, [*system, {"role": "user", "content": ""}])
        ids = ids[: max(2, (self.blocks.num_blocks - 1) * self.blocks.block_size)]
        seq = Sequence("warm-up", ids, SamplingParams(max_tokens=2), Priority.BACKGROUND)
        self.blocks.admit(seq)
        chunks = [min(s.llm_max_step_tokens, len(ids) - start) for start in range(0, len(ids), s.llm_max_step_tokens)]
        for n in chunks:
            self.blocks.grow(seq, n)
            self.runner.run(prepare_step(ScheduledBatch(prefill=[(seq, n)]), self.blocks.block_size, self.device))
            seq.num_computed += n
        seq.token_ids.append(0)
        self.blocks.grow(seq, 1)
        self.runner.run(prepare_step(ScheduledBatch(decode=[seq]), self.blocks.block_size, self.device))
        seq.num_computed += 1
        seq.token_ids.append(0)
        self.blocks.commit(seq)
        self.blocks.release(seq)

    async def stop(self) -> None:
        if not self._started:
            return
        with self._cv:
            self._stopping = True
            self._cv.notify_all()
        await asyncio.to_thread(self._thread.join)
        self._prompt_thread.shutdown(wait=False)  # a prompt still being built then finds the engine stopped
        self._started = False
        with self._cv:
            pending = list(self._requests.values())
            for req in pending:
                self.scheduler.remove(req.seq)
            self._requests.clear()
        for req in pending:
            self._deliver([(req, Delta(req.seq.request_id, [], "", True, "error", req.seq.dropped_turns, "engine stopped"))])

    # --- request API ---
    async def generate(
        self,
        *,
        messages: list[dict] | None = None,
        prompt_token_ids: list[int] | None = None,
        params: SamplingParams,
        priority: Priority,
        session_id: str | None = None,
        request_id: str | None = None,
        tools: list[dict] | None = None,
    ) -> AsyncIterator[Delta]:
        request_id = request_id or uuid.uuid4().hex
        if not self._started:
            yield Delta(request_id, [], "", True, "error", error="the engine is not started")
            return
        loop = asyncio.get_running_loop()
        with self._cv:
            in_use = request_id in self._requests or request_id in self._preparing
            if not in_use:
                self._preparing[request_id] = False
        if in_use:
            yield Delta(request_id, [], "", True, "error", error=f"request id {request_id!r} is already in use")
            return
        try:
            seq = await loop.run_in_executor(self._prompt_thread, self._make_sequence, messages, prompt_token_ids, params,
                                             priority, session_id, request_id, tools)
        except BaseException as exc:
            with self._cv:
                self._preparing.pop(request_id, None)
            if not isinstance(exc, ValueError):  # (a PromptTooLongError is one) else the caller went away meanwhile
                raise
            yield Delta(request_id, [], "", True, "error", error=str(exc))
            return
        seq.detok = IncrementalDetokenizer(self.tokenizer, seq.token_ids, params.stop)
        seq.texts = self.token_texts if params.phrase_repeat_limit and not tools else None  # a call repeats its phrases
        seq.end_ids = tuple(sorted(self.scheduler.config.eos_ids))
        seq.call_openings = self.call_openings if tools and params.call_floor > 0 else ()
        req = _Request(seq, asyncio.Queue(), loop)
        with self._cv:
            refused = None
            if self._preparing.pop(request_id):
                refused = Delta(request_id, [], "", True, "cancelled", seq.dropped_turns)
            elif self._stopping:
                refused = Delta(request_id, [], "", True, "error", seq.dropped_turns, "engine stopped")
            else:
                self._requests[request_id] = req
                self.scheduler.add(seq)
                if seq.priority == Priority.VOICE:
                    self._voice_arrived.set()
                self._cv.notify()
        if refused:
            yield refused
            return
        finished = False
        try:
            while not finished:
                delta = await req.queue.get()
                finished = delta.finished
                if finished:
                    delta.prompt_tokens = req.seq.prompt_len
                yield delta
        finally:
            if not finished:
                self.cancel(request_id)

    def _make_sequence(self, messages, prompt_token_ids, params, priority, session_id, request_id, tools) -> Sequence:
        """On the prompt thread: the request's prompt tokens (its conversation fitted into the context) as a sequence."""
        s = self.settings
        if (messages is None) == (prompt_token_ids is None):
            raise ValueError("pass exactly one of messages or prompt_token_ids")
        if tools and not self.supports_tools:
            raise ToolsUnsupportedError(f"{Path(self.model_path).name} takes no tools (no tool format in its chat "
                                        "template, or llm_tools)")
        if params.max_tokens < 1:
            raise ValueError("max_tokens must be at least 1")
        probe = None
        vocab = self.runner.vocab_size
        if any(not 0 <= token < vocab for token in params.token_probs):
            raise ValueError(f"token_probs names a token id outside the vocabulary (0..{vocab - 1})")
        dropped = 0
        if messages is not None:
            reply_room = min(params.max_tokens, s.max_seq_len // 2)
            rendered = self.prompts.build(messages, default_system=s.default_instructions(tools=bool(tools)) or None,
                                          max_prompt_tokens=s.max_seq_len - reply_room, tools=tools)
            ids, dropped = rendered.token_ids, rendered.dropped_turns
            if params.token_probs and params.token_probs_at == "user_words_end":
                probe = self._user_words_end(messages, ids, tools, s.max_seq_len - reply_room)
        else:
            ids = list(prompt_token_ids)
            if not ids:
                raise ValueError("prompt_token_ids is empty")
            if len(ids) >= s.max_seq_len:
                raise PromptTooLongError(f"the prompt has {len(ids)} tokens; max_seq_len is {s.max_seq_len}")
        if self.blocks.blocks_for(len(ids) + 1) > self.blocks.num_blocks:
            raise ValueError("the prompt needs more KV cache than kv_cache_bytes holds")
        seq = Sequence(request_id, ids, params, Priority(priority), session_id, dropped)
        seq.probe_position = probe
        return seq

    def _user_words_end(self, messages: list[dict], ids: list[int], tools: list[dict] | None,
                        max_prompt_tokens: int) -> int | None:  # fmt: skip
        """The position of the last token of the final user message's words, before its trailing punctuation, in the
        prompt ``ids``: its logits tell what follows the words (the end of the message or a sentence-final mark). Found
        as the length of the same prompt with the message open there; None where the messages end otherwise or that
        prompt is not a prefix of ``ids``."""
        last = messages[-1]
        words = last.get("content")
        if last.get("role") != "user" or last.get("prefix") or not isinstance(words, str):
            return None
        words = user_words(words).rstrip(TRAILING_PUNCTUATION)
        if not words.strip():
            return None
        opened = self.prompts.build([*messages[:-1], {"role": "user", "content": words, "prefix": True}],
                                    default_system=self.settings.default_instructions(tools=bool(tools)) or None,
                                    max_prompt_tokens=max_prompt_tokens, tools=tools).token_ids  # fmt: skip
        return len(opened) - 1 if len(opened) < len(ids) and ids[: len(opened)] == opened else None

    def cancel(self, request_id: str) -> None:
        with self._cv:
            if request_id in self._preparing:  # its stream ends as cancelled once the prompt is built
                self._preparing[request_id] = True
                return
            req = self._requests.pop(request_id, None)
            if req is None:
                return
            self.scheduler.remove(req.seq)
        self._deliver([(req, Delta(request_id, [], "", True, "cancelled", req.seq.dropped_turns))])

    # --- the engine thread ---
    def _run(self, loaded: asyncio.Future) -> None:
        """Load, warm up and serve on this one thread, the only one whose torch ops run on every core
        (see ``use_torch_threads``)."""
        try:
            self._threads = self._step_threads = use_torch_threads(self.settings.llm_threads)
            # a softmax over the vocabulary at a low temperature leaves a tenth of its probabilities below fp32's
            # smallest normal number, and arithmetic on those runs ~7x slower on x86 (docs/benchmarks.md); as zeros
            # they change no choice of a token
            torch.set_flush_denormal(True)
            self._load()
        except BaseException as exc:
            resolve_from_thread(loaded, exc)
            return
        resolve_from_thread(loaded, None)
        self._loop()

    def _loop(self) -> None:
        while True:
            with self._cv:
                if not self.scheduler.has_work():
                    self._publish_work()  # none left: speech work need not wait (the step's is published below)
                while not self._stopping and not self.scheduler.has_work():
                    self._cv.wait()
                if self._stopping:
                    self._publish_work(stopping=True)
                    return
                self._batching_window()
                self._voice_arrived.clear()
                try:
                    batch = self.scheduler.schedule(time.monotonic())
                    inputs = self._prepare(batch) if batch else None
                    self._publish_work()
                except Exception:  # a scheduling bug must not leave every stream waiting forever
                    log.exception("engine scheduling failed; failing all requests")
                    self._fail_all("internal engine error")
                    continue
                if not batch:
                    self._cv.wait(0.01)
                    continue
            try:
                self._run_step(batch, inputs)
            except Exception:  # a failed step never stops the engine, and fails only the request that fails alone
                log.exception("engine step failed (batch of %d); retrying its requests one by one", batch.num_seqs)
                self._isolate_failure(batch)

    def _publish_work(self, *, stopping: bool = False) -> None:
        """Tell the speech stages on the same cores what work this engine holds (``app.cpu_share``)."""
        if self.device.type != "cpu":
            return
        voice = [] if stopping else [s for s in self.scheduler.running + self.scheduler.waiting if s.priority == Priority.VOICE]
        engine_work.voice_replies = len(voice)
        engine_work.prefill = any(s.first_token_at is None for s in voice)

    def _batching_window(self) -> None:
        """Delayed batching: when the engine was idle, wait a moment so requests arriving
        together start in one batch."""
        window = self.settings.batch_window_ms / 1000
        if window <= 0 or self.scheduler.running:
            return
        deadline = time.monotonic() + window
        while not self._stopping and (left := deadline - time.monotonic()) > 0:
            self._cv.wait(left)

    def _share_cores(self) -> None:
        """Leave a core to each speech job running now (see ``app.cpu_share``)."""
        threads = max(1, self._threads - speech_activity.jobs)
        if threads != self._step_threads:
            torch.set_num_threads(threads)
            self._step_threads = threads

    def _prepare(self, batch: ScheduledBatch) -> StepInputs | SpecPlan:
        """Under the lock: the step's forward inputs, or the plan of a speculative step (a snapshot of its rows)."""
        plan = self.speculator.plan(batch) if self.speculator is not None else None
        return plan or prepare_step(batch, self.blocks.block_size, self.device)

    def _forward(self, batch: ScheduledBatch, inputs: StepInputs | SpecPlan) -> StepOutcome | None:
        """The step's forwards and sampling; None when it gave way to a voice request that arrived meanwhile
        (only a step without voice work does)."""
        abort = None if batch.has_voice else self._voice_arrived.is_set
        if isinstance(inputs, SpecPlan):
            return self.speculator.run(inputs, self.runner, abort)
        started = time.perf_counter()
        logits = self.runner.run(inputs, abort)
        if logits is None:
            return None
        forward_ms = (time.perf_counter() - started) * 1000
        sampled, rows, row = list(batch.decode), list(range(len(batch.decode))), len(batch.decode)
        for seq, n in batch.prefill:  # the rows of each chunk's logits: see Sequence.prefill_logits
            wanted = seq.prefill_logits(n)
            if wanted > 1 or (wanted and seq.num_computed + n < len(seq)):
                record_token_probs(logits[row], seq)  # its probe position's row comes first
            if seq.num_computed + n == len(seq):
                sampled.append(seq)
                rows.append(row + wanted - 1)
            row += wanted
        result = sample(logits if len(rows) == len(logits) else logits[rows], sampled)
        outcome = StepOutcome(tokens={s: [] if t is None else [t] for s, t in zip(sampled, result.token_ids)},
                              errors={s: e for s, e in zip(sampled, result.errors) if e is not None})
        if self.speculator is not None:
            self.speculator.observe_plain(batch, forward_ms, outcome)
        return outcome

    def _run_step(self, batch: ScheduledBatch, inputs: StepInputs | SpecPlan) -> None:
        started = time.monotonic()
        self._share_cores()
        outcome = self._forward(batch, inputs)
        if outcome is None:
            self.metrics.observe_aborted_step()
            return
        with self._cv:
            now = time.monotonic()
            outputs = self.scheduler.postprocess(batch, outcome, started, now)
            spec_k = self.speculator.last_k if self.speculator is not None else 0
            self.metrics.observe_step(batch, outcome, outputs, now - started, spec_k)
            deliveries = [(self._requests[out.seq.request_id], out.delta) for out in outputs]
            for out in outputs:
                if out.first_token:
                    out.delta.token_probs, out.delta.prompt_tokens = out.seq.token_probs, out.seq.prompt_len
                    out.delta.below_call_floor = out.seq.below_call_floor
                if out.delta.finished:
                    del self._requests[out.seq.request_id]
        self._deliver(deliveries)

    def _isolate_failure(self, batch: ScheduledBatch) -> None:
        """Re-run a failed step's requests one at a time (their KV slots are simply written again):
        the requests that fail alone are failed, the others go on as if nothing happened."""
        singles = [ScheduledBatch(decode=[seq], batch_limit=1) for seq in batch.decode]
        singles += [ScheduledBatch(prefill=[item], batch_limit=1) for item in batch.prefill]
        for single in singles:
            seq = single.decode[0] if single.decode else single.prefill[0][0]
            with self._cv:
                if seq.status is not Status.RUNNING or seq.request_id not in self._requests:
                    continue  # cancelled meanwhile
                inputs = prepare_step(single, self.blocks.block_size, self.device)
            try:
                self._run_step(single, inputs)
            except Exception:
                log.exception("engine step failed for request %s alone", seq.request_id)
                self._fail_batch(single, "internal engine error")

    def _fail(self, req: _Request, error: str) -> tuple[_Request, Delta]:
        """End a request with an error (the lock is held); its delta is for :meth:`_deliver`."""
        self._requests.pop(req.seq.request_id, None)
        self.scheduler.remove(req.seq)
        self.metrics.observe_finished(req.seq.priority, "error")
        return req, Delta(req.seq.request_id, [], "", True, "error", req.seq.dropped_turns, error)

    def _fail_all(self, error: str) -> None:
        """Fail every request (the lock is held)."""
        self._deliver([self._fail(req, error) for req in list(self._requests.values())])

    def _fail_batch(self, batch: ScheduledBatch, error: str) -> None:
        with self._cv:
            rows = batch.decode + [s for s, _ in batch.prefill]
            failed = [self._fail(req, error) for seq in rows if (req := self._requests.get(seq.request_id)) is not None]
        self._deliver(failed)

    @staticmethod
    def _deliver(items: list[tuple[_Request, Delta]]) -> None:
        """Hand deltas to their event loops, one wake-up per loop and step."""
        by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Queue, Delta]]] = {}
        for req, delta in items:
            by_loop.setdefault(req.loop, []).append((req.queue, delta))
        for loop, batch in by_loop.items():
            try:
                loop.call_soon_threadsafe(_put_all, batch)
            except RuntimeError:  # the loop is closed: nobody is listening any more
                pass

    # --- observability ---
    @property
    def started(self) -> bool:
        return self._started

    @property
    def cpu_threads(self) -> int:
        """Torch threads of the last step (fewer than the engine's own while speech jobs run)."""
        return self._step_threads

    def stats(self) -> dict:
        with self._cv:
            if self.scheduler is None:
                return {"backend": "local", "started": False}
            return self.metrics.stats(self)

    def metrics_text(self) -> bytes:
        """Prometheus exposition of this engine's metrics (refreshes the gauges first)."""
        self.stats()
        return self.metrics.exposition()


def _put_all(items: list[tuple[asyncio.Queue, Delta]]) -> None:
    for queue, delta in items:
        queue.put_nowait(delta)


__all__ = ["LocalEngine"]
