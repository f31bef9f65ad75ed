"""One assistant reply in production: LLM tokens -> clauses -> TTS audio, all streaming, all cancellable.

The producers run ahead into one queue of outputs; the session sends them once the reply is
committed (a speculative reply is produced during the end-of-turn pause and thrown away if the
user goes on talking). ``heard_text`` maps the audio the client played back to the words it carried.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field

from app.engine.api import Delta, LLMBackend, Priority, SamplingParams, next_token_probs
from app.engine.tool_calls import MalformedCall, ToolCall, ToolCallParser, check_call, forced_call_prefix
from app.tts.chunker import ClauseChunker
from app.web.realtime.function_calls import ToolUse
from app.web.realtime.parts import SpeechOut
from app.web.reply_guard import ReplyGuard, speakable_end
from app.web.realtime.wire import new_id
from app.web.timing import Timing

log = logging.getLogger(__name__)


class StageError(Exception):
    """A failure of the engine or TTS for this reply only (or a call the model wrote wrong); the reply
    ends ``failed`` and the client gets an error with ``code``."""

    def __init__(self, stage: str, message: str, code: str = "stage_failed"):
        super().__init__(f"{stage}: {message}")
        self.stage = stage
        self.code = code


class UnusableCall(StageError):
    """A call the client cannot run: it names a tool the client did not declare, does not parse, or breaks its tool's
    schema."""

    def __init__(self, message: str):
        super().__init__("llm", message, "invalid_tool_call")


class BelowCallFloor(Exception):
    """The model's first token held too small a share for a call (``SamplingParams.call_floor``): it means to answer
    in words."""


WORDS_REQUEST = "{}-words"  # the request id of the reply without tools that starts beside a reply's own
PROBE = "{}-probe-{}"  # the request id of a reply's question of its call's name or a value (``Reply._check_shares``)


class StartedStream:
    """An engine stream whose first delta is asked for at once, so that its prompt is prefilled beside another
    request's (the same step, where both arrive in time) rather than after it."""

    def __init__(self, stream: AsyncIterator[Delta]):
        self._stream = stream
        self._first: asyncio.Future[Delta] | None = asyncio.ensure_future(anext(stream))

    async def __aiter__(self) -> AsyncIterator[Delta]:
        first, self._first = self._first, None
        try:
            if first is not None:
                yield await first
            async for delta in self._stream:
                yield delta
        finally:
            await self._stream.aclose()  # its request ends with it

    def drop(self) -> None:
        """Not wanted: a first delta still awaited is given up, which ends the engine stream and its request (one
        already in: the caller cancels its request)."""
        if self._first is not None:
            self._first.cancel()


@dataclass
class SpokenClause:
    """A clause handed to TTS and how many of its samples reached the client."""

    text: str
    samples: int = 0


@dataclass
class Output:
    """One item of the reply's output stream (``kind``: text, audio, clause_done, call, end, error)."""

    kind: str
    text: str = ""
    call: ToolCall | None = None
    pcm: bytes = b""
    clause: int = -1
    finish_reason: str | None = None
    error: StageError | None = None


@dataclass
class Reply:
    """Produces one reply. ``start()`` launches the producers; ``outputs`` yields what to send."""

    engine: LLMBackend
    tts: SpeechOut
    messages: list[dict[str, str]]  # the prompt; may be set after construction, before ``start``
    params: SamplingParams
    priority: Priority
    session_id: str
    output_audio: bool
    output_rate: int
    voice_turn: bool
    output_speed: float = 1.0  # the voice's rate, a multiple of its own
    timing: Timing = field(default_factory=Timing)
    in_conversation: bool = True  # False: an out-of-band response, neither stored nor shown as an item
    metadata: dict[str, str] | None = None
    tool_use: ToolUse = field(default_factory=ToolUse)
    # the same prompt for a reply without tools: where the model's call fits no declared tool, or it answers in words,
    # the reply is written again without them (see ``_answers_without_tools``); None: such a call fails the reply
    without_tools: Callable[[list[dict[str, str]]], list[dict[str, str]]] | None = None
    # a call whose tool name, or a number in whose arguments, the model held less of at its first token is one it
    # cannot run (see ``_check_shares``)
    name_floor: float = 0.0
    value_floor: float = 0.0
    id: str = field(default_factory=lambda: new_id("resp"))
    item_id: str = field(default_factory=lambda: new_id("item"))

    def __post_init__(self) -> None:
        self.outputs: asyncio.Queue[Output] = asyncio.Queue()
        self.clauses: list[SpokenClause] = []
        self.text = ""  # everything the LLM produced, less its calls
        self.calls: list[ToolCall] = []
        self.sent_text = ""  # the part of it already sent to the client
        self.output_tokens = 0
        self.input_tokens: int | None = None  # the prompt's tokens, where the LLM backend reports them
        self._tasks: list[asyncio.Task] = []
        self._clause_queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.stopped = False
        self.ended_in_loop = False  # the loop guard ended it (ReplyGuard), maybe mid-sentence
        self.finished = False  # response.done was sent
        self.cancel_reason = "client_cancelled"
        self.send_stamp_armed = False  # the first frame to reach the client carries the send stamp
        self.token_probs: dict[int, float] | None = None  # the engine's answer to ``params.token_probs``
        self._first_delta = asyncio.Event()  # set at the engine's first answer, or when the text stream ends
        self._words: StartedStream | None = None  # the same reply without tools, started beside it (_produce_text)

    def start(self) -> None:
        self._tasks.append(asyncio.create_task(self._produce_text(), name=f"llm-{self.id}"))
        if self.output_audio:
            self._tasks.append(asyncio.create_task(self._produce_audio(), name=f"tts-{self.id}"))

    def stop(self) -> None:
        """Cancel at once: the engine frees the request's KV, TTS drops its chunks, producers end."""
        if self.stopped:
            return
        self.stopped = True
        with contextlib.suppress(Exception):
            self.engine.cancel(self.id)
            if self._starts_words:
                self.engine.cancel(WORDS_REQUEST.format(self.id))
        if self.output_audio:
            with contextlib.suppress(Exception):
                self.tts.cancel(self.id)
        for task in self._tasks:
            task.cancel()

    @property
    def _starts_words(self) -> bool:
        """Whether the reply without tools starts beside this one: the model may call or answer in words, and the
        engine's first token says which (``SamplingParams.call_floor``)."""
        return self.without_tools is not None and self.params.call_floor > 0 and self.tool_use.active

    async def probed(self) -> dict[int, float] | None:
        """``params.token_probs`` as the engine read them (None where it could not), once its first token is in."""
        await self._first_delta.wait()
        return self.token_probs

    # --- producers ---

    async def _produce_text(self) -> None:
        chunker = ClauseChunker() if self.output_audio else None
        # where the model may answer in words instead of calling, the reply without tools starts beside it: the first
        # token says which of the two is kept (BelowCallFloor)
        if self._starts_words:
            words = self._request(self.without_tools(self.messages), ToolUse(), WORDS_REQUEST.format(self.id))
            self._words = StartedStream(words)
        try:
            try:
                finish_reason = await self._generate(self._request(self.messages, self.tool_use), self.tool_use, chunker)
            except (StageError, BelowCallFloor) as error:
                if not self._answers_without_tools(error):
                    raise
                log.info("reply %s: %s; answering without tools", self.id, error)
                words, self._words = self._words, None
                words = words or self._request(self.without_tools(self.messages), ToolUse())
                finish_reason = await self._generate(words, ToolUse(), chunker)
            if chunker is not None:
                for clause in speakable_end(chunker.flush(), cut=finish_reason == "length" or self.ended_in_loop):
                    self._queue_clause(clause)
        except StageError as error:
            self._fail(error)
            return
        except asyncio.CancelledError:
            raise
        except Exception as error:  # any engine failure ends this reply only
            log.exception("LLM stage failed for reply %s", self.id)
            self._fail(StageError("llm", str(error) or type(error).__name__))
            return
        finally:
            self._drop_words()
            self._first_delta.set()
            if self.output_audio:
                self._clause_queue.put_nowait(None)
        self.outputs.put_nowait(Output("end", finish_reason=finish_reason))

    def _answers_without_tools(self, error: Exception) -> bool:
        """A call the client cannot run, before any text or call went out, where the client did not require a call:
        the model meant something none of the tools does ("Play some jazz" -> ``play_music`` beside a timer and a
        clock; "My favourite colour is green." -> ``set_timer`` without its seconds), so the reply is written again as
        a reply without tools, which may say it cannot (``limits_prompt``), instead of failing with nothing said. Where
        the client required a call the reply fails (``invalid_tool_call``). So is a reply the model means to answer in
        words (:class:`BelowCallFloor`): with tools in its prompt it talked about them ("You can call the
        get_current_time function ..." for "What is my friend's name?") where without them it answers."""
        return isinstance(error, (UnusableCall, BelowCallFloor)) and self._may_answer_again

    @property
    def _may_answer_again(self) -> bool:
        """Whether the reply may still be written again without tools: nothing of it went out yet and the client did
        not require a call."""
        return (self.without_tools is not None and self.tool_use.choice == "auto" and not self.text and not self.calls
                and not self.stopped)

    def _request(self, messages: list[dict[str, str]], tool_use: ToolUse, request_id: str | None = None
                 ) -> AsyncIterator[Delta]:  # fmt: skip
        """The engine stream of the reply on ``messages`` (a call the client requires: continued from inside it)."""
        prefix = tool_use.call_prefix()
        return self.engine.generate(
            messages=[*messages, {"role": "assistant", "content": prefix, "prefix": True}] if prefix else messages,
            params=self.params,
            priority=self.priority,
            session_id=self.session_id,
            request_id=request_id or self.id,
            tools=tool_use.template_tools(),
        )

    def _drop_words(self) -> None:
        words, self._words = self._words, None
        if words is not None:
            words.drop()
            with contextlib.suppress(Exception):
                self.engine.cancel(WORDS_REQUEST.format(self.id))

    async def _generate(self, stream: AsyncIterator[Delta] | StartedStream, tool_use: ToolUse,
                        chunker: ClauseChunker | None) -> str | None:  # fmt: skip
        """Stream one engine request into the reply's text, calls and clauses; its finish reason."""
        guard = ReplyGuard(self.params.max_tokens, spoken=self.output_audio)
        finish_reason: str | None = None
        tokens_before = self.output_tokens  # a failed call's, where this is the reply written again
        calls = ToolCallParser() if tool_use.active else None
        if calls is not None:
            calls.feed(tool_use.call_prefix())  # the model continues from inside a call the client requires
        # closed on the way out, so an abandoned request is cancelled now, before a reply written again reuses its id
        async with contextlib.aclosing(aiter(stream)) as deltas:
            async for delta in deltas:
                if not self._first_delta.is_set():
                    self.token_probs = delta.token_probs
                    self._first_delta.set()
                if delta.error:
                    raise StageError("llm", delta.error)
                if delta.below_call_floor and self.without_tools is not None and tool_use.active:
                    raise BelowCallFloor("the model answers in words")
                if tool_use.active:
                    self._drop_words()  # the model may call: the reply keeps its tools
                if delta.prompt_tokens is not None:
                    self.input_tokens = delta.prompt_tokens
                if delta.token_ids:
                    self.output_tokens += len(delta.token_ids)
                if delta.text:
                    if self.timing.first_token is None:
                        self.timing.first_token = time.perf_counter()
                    for piece in calls.feed(delta.text) if calls is not None else [delta.text]:
                        await self._check_shares(piece, tool_use)
                        self._take(piece, chunker, tool_use)
                if delta.finished:
                    finish_reason = delta.finish_reason
                    break
                if guard.check(self.text, self.output_tokens - tokens_before):
                    log.info("reply %s ends early (%s) after %d tokens", self.id, guard.reason, self.output_tokens)
                    self.ended_in_loop = guard.reason == "loop"
                    self.engine.cancel(self.id)
                    finish_reason = "stop"
                    break
        for piece in calls.finish() if calls is not None else []:
            await self._check_shares(piece, tool_use)
            self._take(piece, chunker, tool_use)
        return finish_reason

    async def _check_shares(self, piece: str | ToolCall | MalformedCall, tool_use: ToolUse) -> None:
        """A reply's first call, where it may be answered in words instead, stands only where the model held enough
        of the first token of the tool's name (``name_floor``) and of each number in its arguments (``value_floor``),
        each asked after the call as written up to it. A model asked for something no declared tool does still calls
        the likeliest one ("Call a taxi for me." -> ``set_timer``), but from a split share, where a wanted tool's name
        holds nearly all; one asked for what a number of the tool cannot say guesses it ("Wake me up at seven
        tomorrow." -> ``set_timer`` for 3600 seconds, where "Set a timer for two minutes." holds nearly all of its
        first digit: docs/benchmarks.md). Either call is one the client cannot run."""
        tokenizer = getattr(self.engine, "tokenizer", None)
        declared = isinstance(piece, ToolCall) and piece.name in {tool["name"] for tool in tool_use.tools}
        if not declared or tokenizer is None or not self._may_answer_again:
            return  # words, a reply that can no longer be written again, or an undeclared tool (check_call's)
        questions: list[tuple[str, str, int, float]] = []  # (what, the call written up to it, its first token, floor)

        def ask(what: str, written: str, text: str, floor: float) -> None:
            first = tokenizer.encode(text, add_special_tokens=False)[:1]
            if first:
                questions.append((what, written, first[0], floor))

        if self.name_floor:
            ask(f"the name {piece.name!r}", forced_call_prefix("required"), piece.name, self.name_floor)
        if self.value_floor:
            for key, before, value in _numbers(piece.arguments):
                ask(f"{key}={value}", forced_call_prefix({"name": piece.name}) + before, json.dumps(value), self.value_floor)
        answers = await asyncio.gather(*(
            next_token_probs(self.engine, [*self.messages, {"role": "assistant", "content": written, "prefix": True}],
                             (token,), tools=tool_use.template_tools(), priority=self.priority,
                             session_id=self.session_id, request_id=PROBE.format(self.id, n))
            for n, (_, written, token, _) in enumerate(questions)))  # fmt: skip
        for (what, _, token, floor), answer in zip(questions, answers):
            probs = answer.token_probs if answer is not None else None
            share = None if probs is None else probs.get(token, 0.0)
            if share is not None and share < floor:
                raise UnusableCall(f"the model held {share:.2f} for {what}, below its floor {floor}")

    def _take(self, piece: str | ToolCall | MalformedCall, chunker: ClauseChunker | None, tool_use: ToolUse) -> None:
        """Text goes out (and to TTS); a call goes out as a call once it fits the declared tools. One that does not,
        after calls that did and where no call was required, is left out (the model ran on past its calls: a second
        call repeating the tool's schema as its arguments) instead of failing the calls already made."""
        if isinstance(piece, str):
            self.text += piece
            self.outputs.put_nowait(Output("text", text=piece))
            for clause in chunker.push(piece) if chunker is not None else []:
                self._queue_clause(clause)
            return
        problem = (f"the model wrote a call that does not parse ({piece.reason})" if isinstance(piece, MalformedCall)
                   else check_call(piece, list(tool_use.tools)))  # fmt: skip
        if problem is not None and self.calls and tool_use.choice == "auto":
            log.info("reply %s: %s; left out, its earlier calls stand", self.id, problem)
            return
        if problem is not None:
            raise UnusableCall(problem)
        self.calls.append(piece)
        self.outputs.put_nowait(Output("call", call=piece))

    def _queue_clause(self, clause: str) -> None:
        if not clause.strip():
            return
        if self.timing.first_clause is None:
            self.timing.first_clause = time.perf_counter()
        self._clause_queue.put_nowait(clause)

    async def _produce_audio(self) -> None:
        index = 0
        try:
            while (clause := await self._clause_queue.get()) is not None:
                self.clauses.append(SpokenClause(clause))
                async for pcm in self.tts.synthesize(clause, reply_id=self.id, first=index == 0, out_rate=self.output_rate,
                                                     speed=self.output_speed):  # fmt: skip
                    if not pcm:
                        continue
                    if self.timing.first_chunk is None:
                        self.timing.first_chunk = time.perf_counter()
                    self.outputs.put_nowait(Output("audio", pcm=pcm, clause=index))
                self.outputs.put_nowait(Output("clause_done", clause=index))
                index += 1
        except asyncio.CancelledError:
            raise
        except Exception as error:
            log.exception("TTS stage failed for reply %s", self.id)
            self._fail(StageError("tts", str(error) or type(error).__name__))
            return
        self.outputs.put_nowait(Output("end", finish_reason="audio"))

    def _fail(self, error: StageError) -> None:
        self.outputs.put_nowait(Output("error", error=error))

    # --- what was heard ---

    def audio_ms(self) -> float:
        return sum(c.samples for c in self.clauses) * 1000.0 / self.output_rate

    def spoken_text(self) -> str:
        """Text of the clauses whose audio reached the client (at least partly)."""
        return " ".join(c.text.strip() for c in self.clauses if c.samples > 0).strip()

    def heard_text(self, audio_end_ms: float) -> str:
        """The words carried by the first ``audio_end_ms`` of audio: whole clauses played, plus the
        played share of the words of the clause that was playing."""
        remaining = audio_end_ms * self.output_rate / 1000.0
        kept: list[str] = []
        for clause in self.clauses:
            if clause.samples == 0:
                continue
            if remaining >= clause.samples:
                kept.append(clause.text.strip())
                remaining -= clause.samples
                continue
            words = clause.text.split()
            share = int(len(words) * remaining / clause.samples)
            if share:
                kept.append(" ".join(words[:share]))
            break
        return " ".join(kept).strip()


def _numbers(arguments: str) -> list[tuple[str, str, int | float]]:
    """Each number among a call's top-level ``arguments``: its key, the arguments as written up to its value, the
    value."""
    try:
        parsed = json.loads(arguments)
    except ValueError:
        return []  # check_call says so
    if not isinstance(parsed, dict):
        return []
    numbers, items = [], list(parsed.items())
    for index, (key, value) in enumerate(items):
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            before = json.dumps(dict(items[:index]))[:-1] + (", " if index else "") + f"{json.dumps(key)}: "
            numbers.append((key, before, value))
    return numbers
