"""The local engine: an asyncio-facing API over a step loop that runs in its own thread.

Requests enter from the event loop (``generate`` tokenises and queues them), the engine thread
schedules, runs one packed forward, samples and detokenises, and hands deltas back to each
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
from dataclasses import dataclass, replace
from pathlib import Path

import torch
from transformers import AutoTokenizer

from app.config import Settings
from app.engine.api import Delta, Priority, SamplingParams
from app.engine.attention import StepInputs, prepare_step
from app.engine.detokenizer import IncrementalDetokenizer
from app.engine.kv_cache import BlockManager
from app.engine.metrics import EngineMetrics, peak_rss_bytes
from app.cpu_share import speech_activity
from app.device import resolve_device, use_torch_threads
from app.handoff import resolve_from_thread
from app.engine.model_runner import ModelRunner, compute_dtype
from app.engine.prompt import PromptTooLongError, build_prompt
from app.engine.sampling import sample
from app.engine.scheduler import ScheduledBatch, Scheduler, SchedulerConfig
from app.engine.sequence import Sequence, Status
from app.engine.speculative import SpecPlan, Speculator, StepOutcome

log = logging.getLogger(__name__)


@dataclass(eq=False)
class _Request:
    seq: Sequence
    detok: IncrementalDetokenizer
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
        self.device = resolve_device(settings.device)
        self.metrics = EngineMetrics(self.device)
        self._cv = threading.Condition()
        self._requests: dict[str, _Request] = {}
        self._thread: threading.Thread | None = None
        self._threads = self._step_threads = 1  # torch threads of the engine thread: its own, and this step's
        self._stopping = False
        self._started = False
        self._voice_arrived = threading.Event()  # set when a voice request is queued, cleared per step
        self.runner: ModelRunner | None = None
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
        self._started = True

    def _load(self) -> None:
        s = self.settings
        self.tokenizer = AutoTokenizer.from_pretrained(str(self.model_path))
        dtype = compute_dtype(s.llm_dtype, self.model_path, self.device, lean=s.llm_lean_forward,
                              half_weights=s.llm_half_weights, weight_bits=s.llm_weight_bits)
        self.runner = self._runner(self.model_path, dtype, s.kv_cache_bytes)
        self.eos_ids = _eos_ids(self.runner.model, self.tokenizer)
        self.blocks = BlockManager(self.runner.cache.num_blocks, s.kv_block_size)
        self._warm_up()
        self.speculator = self._load_draft() if self.draft_path is not None and s.llm_speculative_tokens > 0 else None
        self.scheduler = Scheduler(
            SchedulerConfig(
                max_batch=s.max_batch,
                max_step_tokens=s.llm_max_step_tokens,
                aging_s=s.llm_priority_aging_s,
                itl_target_ms=s.llm_itl_target_ms,
                max_seq_len=s.max_seq_len,
            ),
            self.blocks,
        )
        self.scheduler.lookahead = s.llm_speculative_tokens if self.speculator else 0

    def _runner(self, path: str | Path, dtype: torch.dtype, kv_cache_bytes: int) -> ModelRunner:
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
            weight_bits=s.llm_weight_bits,
            kv_dtype=None if s.llm_kv_dtype == "auto" else getattr(torch, s.llm_kv_dtype),
        )

    def _load_draft(self) -> Speculator:
        """The draft model beside the target: same device and compute dtype, a KV cache of as many blocks
        (the target's block tables address both), warmed up and timed."""
        s = self.settings
        draft_tokenizer = AutoTokenizer.from_pretrained(str(self.draft_path))
        if draft_tokenizer.get_vocab() != self.tokenizer.get_vocab():
            raise ValueError(f"draft model {self.draft_path} does not share the tokenizer of {self.model_path}")
        draft = self._runner(self.draft_path, self.runner.dtype, 0)
        draft.allocate_cache(self.blocks.num_blocks)
        speculator = Speculator(draft, self.runner, s.llm_speculative_tokens, s.llm_max_step_tokens, s.max_seq_len)
        seq = Sequence("calibrate", list(range(1, 9)), SamplingParams(), Priority.BACKGROUND)
        self.blocks.admit(seq)
        self.blocks.grow(seq, len(seq) + 16)
        speculator.calibrate(self.runner, seq.block_table, len(seq))
        self.blocks.release(seq)
        log.info("speculative decoding with draft %s: up to %d tokens a step, KV cache %.0f MiB",
                 self.draft_path, s.llm_speculative_tokens, draft.cache.nbytes / 2**20)
        return speculator

    def _warm_up(self) -> None:
        """One prefill and one decode step before the first request, so one-off costs (kernel
        selection, weight layouts, allocator growth) do not land on a user's first token."""
        seq = Sequence("warm-up", list(range(1, 9)), SamplingParams(max_tokens=2), Priority.BACKGROUND)
        self.blocks.admit(seq)
        for n in (len(seq), 1):
            self.blocks.grow(seq, n)
            batch = ScheduledBatch(prefill=[(seq, n)]) if n > 1 else ScheduledBatch(decode=[seq])
            self.runner.run(prepare_step(batch, self.blocks.block_size, self.device))
            seq.num_computed += n
            seq.token_ids.append(0)
        self.blocks.release(seq)

    async def stop(self) -> None:
        if not self._started:
            return
        with self._cv:
            self._stopping = True
            self._cv.notify_all()
        await asyncio.to_thread(self._thread.join)
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
    ) -> AsyncIterator[Delta]:
        request_id = request_id or uuid.uuid4().hex
        if not self._started:
            yield Delta(request_id, [], "", True, "error", error="the engine is not started")
            return
        try:
            seq = self._make_sequence(messages, prompt_token_ids, params, priority, session_id, request_id)
        except (PromptTooLongError, ValueError) as exc:
            yield Delta(request_id, [], "", True, "error", error=str(exc))
            return
        req = _Request(seq, IncrementalDetokenizer(self.tokenizer, seq.token_ids, params.stop), asyncio.Queue(), asyncio.get_running_loop())
        with self._cv:
            if request_id in self._requests:
                error = f"request id {request_id!r} is already in use"
            else:
                error = None
                self._requests[request_id] = req
                self.scheduler.add(seq)
                if seq.priority == Priority.VOICE:
                    self._voice_arrived.set()
                self._cv.notify()
        if error:
            yield Delta(request_id, [], "", True, "error", error=error)
            return
        finished = False
        try:
            while not finished:
                delta = await req.queue.get()
                finished = delta.finished
                yield delta
        finally:
            if not finished:
                self.cancel(request_id)

    def _make_sequence(self, messages, prompt_token_ids, params, priority, session_id, request_id) -> Sequence:
        s = self.settings
        if (messages is None) == (prompt_token_ids is None):
            raise ValueError("pass exactly one of messages or prompt_token_ids")
        if params.max_tokens < 1:
            raise ValueError("max_tokens must be at least 1")
        dropped = 0
        if messages is not None:
            reply_room = min(params.max_tokens, s.max_seq_len // 2)
            rendered = build_prompt(
                self.tokenizer, messages, default_system=s.system_prompt or None, max_prompt_tokens=s.max_seq_len - reply_room
            )
            ids, dropped = rendered.token_ids, rendered.dropped_turns
        else:
            ids = list(prompt_token_ids)
            if not ids:
                raise ValueError("prompt_token_ids is empty")
            if len(ids) >= s.max_seq_len:
                raise PromptTooLongError(f"the prompt has {len(ids)} tokens; max_seq_len is {s.max_seq_len}")
        if self.blocks.blocks_for(len(ids) + 1) > self.blocks.num_blocks:
            raise ValueError("the prompt needs more KV cache than kv_cache_bytes holds")
        return Sequence(request_id, ids, params, Priority(priority), session_id, dropped)

    def cancel(self, request_id: str) -> None:
        with self._cv:
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
            self._load()
        except BaseException as exc:
            resolve_from_thread(loaded, exc)
            return
        resolve_from_thread(loaded, None)
        self._loop()

    def _loop(self) -> None:
        while True:
            with self._cv:
                while not self._stopping and not self.scheduler.has_work():
                    self._cv.wait()
                if self._stopping:
                    return
                self._batching_window()
                self._voice_arrived.clear()
                try:
                    batch = self.scheduler.schedule(time.monotonic())
                    inputs = self._prepare(batch) if batch else None
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
        if self.speculator is not None:
            self.speculator.observe_plain(batch, (time.perf_counter() - started) * 1000)
        sampled = batch.decode + [seq for seq, n in batch.prefill if seq.num_computed + n == len(seq)]
        result = sample(logits, sampled)
        return StepOutcome(tokens={s: [] if t is None else [t] for s, t in zip(sampled, result.token_ids)},
                           errors={s: e for s, e in zip(sampled, result.errors) if e is not None})

    def _run_step(self, batch: ScheduledBatch, inputs: StepInputs | SpecPlan) -> None:
        started = time.monotonic()
        self._share_cores()
        outcome = self._forward(batch, inputs)
        if outcome is None:
            self.metrics.observe_aborted_step()
            return
        now = time.monotonic()
        out: list[tuple[_Request, Delta]] = []
        with self._cv:
            prompt_tokens = 0
            for seq in batch.decode:
                if seq.status is Status.RUNNING:
                    seq.num_computed += max(1, len(outcome.tokens.get(seq, ())))  # a verified run computed them all
            for seq, n in batch.prefill:
                if seq.status is Status.RUNNING:
                    seq.num_computed += n
                    prompt_tokens += n
            for seq, drafted in outcome.draft_computed.items():
                if seq.status is Status.RUNNING:
                    seq.draft_computed = drafted
            for seq, tokens in outcome.tokens.items():
                req = self._requests.get(seq.request_id)
                if req is None or seq.status is not Status.RUNNING:
                    continue  # cancelled during the forward
                out.append((req, self._append_tokens(req, tokens, outcome.errors.get(seq), now)))
            for seq in batch.decode + [s for s, _ in batch.prefill]:
                if seq.status is Status.RUNNING:
                    self.blocks.commit(seq)
            step_s = time.monotonic() - started
            generated = sum(len(delta.token_ids) for _, delta in out)
            # the batch sizer weighs the time per token: a verified run hands out several at once
            self.scheduler.after_step(batch, step_s * 1000 * len(batch.decode) / max(generated, len(batch.decode), 1))
            self.metrics.observe_step(batch.num_seqs, batch.batch_limit, generated, prompt_tokens, step_s)
            if outcome.verified:
                self.metrics.observe_speculation(self.speculator.last_k, outcome.verified, outcome.proposed,
                                                 outcome.accepted)
            if batch.preempted:
                self.metrics.preemptions.inc(len(batch.preempted))
        self._deliver(out)

    def _append_tokens(self, req: _Request, tokens: list[int], error: str | None, now: float) -> Delta:
        """A step's tokens (several after a verified speculation) as one delta; those after a stop are dropped."""
        if error is not None or not tokens:
            return self._append_token(req, None, error, now)
        deltas = []
        for token in tokens:
            deltas.append(self._append_token(req, token, None, now))
            if deltas[-1].finished:
                break
        if len(deltas) == 1:
            return deltas[0]
        return replace(deltas[-1], token_ids=[t for d in deltas for t in d.token_ids], text="".join(d.text for d in deltas))

    def _append_token(self, req: _Request, token: int | None, error: str | None, now: float) -> Delta:
        seq = req.seq
        if error is not None or token is None:
            self._finish(req, "error")
            return Delta(seq.request_id, [], req.detok.flush(), True, "error", seq.dropped_turns, error)
        seq.token_ids.append(token)
        if seq.first_token_at is None:
            seq.first_token_at = now
            self.metrics.observe_ttft(seq.priority, now - seq.arrival)
        elif seq.last_token_at is not None:
            self.metrics.itl.observe(now - seq.last_token_at)
        seq.last_token_at = now
        step = req.detok.push(token)
        text = step.text
        reason = None
        if step.stopped or (token in self.eos_ids and not seq.params.ignore_eos):
            reason = "stop"
        elif seq.num_generated >= seq.params.max_tokens or len(seq) >= self.settings.max_seq_len:
            reason = "length"
        if reason is None:
            return Delta(seq.request_id, [token], text, False, None, seq.dropped_turns)
        if not step.stopped:
            text += req.detok.flush()
        self._finish(req, reason)
        return Delta(seq.request_id, [token], text, True, reason, seq.dropped_turns)

    def _finish(self, req: _Request, reason: str) -> None:
        self._requests.pop(req.seq.request_id, None)
        self.scheduler.remove(req.seq)
        self.metrics.finished.labels(req.seq.priority.name.lower(), reason).inc()

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

    def _fail_all(self, error: str) -> None:
        """Fail every request (the lock is held)."""
        out = []
        for req in list(self._requests.values()):
            self._finish(req, "error")
            out.append((req, Delta(req.seq.request_id, [], "", True, "error", req.seq.dropped_turns, error)))
        self._deliver(out)

    def _fail_batch(self, batch: ScheduledBatch, error: str) -> None:
        out = []
        with self._cv:
            for seq in batch.decode + [s for s, _ in batch.prefill]:
                req = self._requests.get(seq.request_id)
                if req is not None:
                    self._finish(req, "error")
                    out.append((req, Delta(seq.request_id, [], "", True, "error", seq.dropped_turns, error)))
        self._deliver(out)

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
    def stats(self) -> dict:
        with self._cv:
            if self.scheduler is None:
                return {"backend": "local", "started": False}
            sched, blocks, m = self.scheduler, self.blocks, self.metrics
            out: dict = {
                "backend": "local",
                "started": self._started,
                "model": str(self.model_path),
                "device": str(self.device),
                "dtype": str(self.runner.dtype).removeprefix("torch."),
                "weight_format": self.runner.weight_format,
                "weight_bytes": self.runner.weight_bytes,
                "kv_dtype": str(self.runner.layout.dtype).removeprefix("torch."),
                "forward": "lean" if self.runner.lean is not None else "generic",
                "running": len(sched.running),
                "waiting": len(sched.waiting),
                "batch_size": m.last_batch_size if sched.running else 0,  # the last step's, while one runs
                "batch_limit": sched.last_limit,
                "max_batch": self.settings.max_batch,
                "kv_blocks_total": blocks.num_blocks,
                "kv_blocks_used": blocks.num_used,
                "kv_blocks_free": blocks.num_free,
                "kv_blocks_cached": blocks.num_cached_free,
                "kv_block_size": blocks.block_size,
                "kv_bytes_per_token": self.runner.layout.bytes_per_token,
                "kv_cache_bytes": self.runner.cache.nbytes,
                "tokens_per_s": round(m.current_tokens_per_s(), 2),
                "generated_tokens": m.total_generated,
                "prompt_tokens": m.total_prompt_tokens,
                "prefix_hit_tokens": blocks.prefix_hit_tokens,
                "prefix_hit_rate": round(blocks.prefix_hit_tokens / blocks.prefix_query_tokens, 4)
                if blocks.prefix_query_tokens
                else 0.0,
                "preemptions": sched.num_preemptions,
                "aborted_steps": m.total_aborted_steps,
                "steps": m.steps,
                "last_step_ms": round(m.last_step_ms, 2),
                "cpu_threads": self._step_threads,
                "peak_memory_bytes": m.peak_memory_bytes(),
                "peak_rss_bytes": peak_rss_bytes(),
            }
            for p in Priority:
                name = p.name.lower()
                out[f"running_{name}"] = sum(1 for s in sched.running if s.priority == p)
                out[f"waiting_{name}"] = sum(1 for s in sched.waiting if s.priority == p)
            for p in Priority:
                m.running.labels(p.name.lower()).set(out[f"running_{p.name.lower()}"])
                m.waiting.labels(p.name.lower()).set(out[f"waiting_{p.name.lower()}"])
            m.kv_used.set(blocks.num_used)
            m.kv_free.set(blocks.num_free)
            m.kv_cached.set(out["kv_blocks_cached"])
            out.update(m.ttft_percentiles())
            if self.speculator is not None:
                out["spec_draft_model"] = str(self.draft_path)
                out["spec_tokens"] = self.speculator.last_k
                out["spec_max_tokens"] = self.speculator.policy.max_k
                m.spec_k.set(self.speculator.last_k)
                out.update(m.speculation())
            return out

    def metrics_text(self) -> bytes:
        """Prometheus exposition of this engine's metrics (refreshes the gauges first)."""
        self.stats()
        return self.metrics.exposition()


def _put_all(items: list[tuple[asyncio.Queue, Delta]]) -> None:
    for queue, delta in items:
        queue.put_nowait(delta)


__all__ = ["LocalEngine"]
