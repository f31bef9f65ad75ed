"""Responses: ``response.create|cancel``, and sending a produced reply as its events and audio.

One response of the conversation runs at a time (``active``); out-of-band ones (conversation
``none``) run beside it at background priority and are never stored. A response's outputs are its
message and its function calls (``response_output``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from typing import TYPE_CHECKING, Any, Callable

from app.answers.conversions import with_conversion_hint
from app.answers.notes import (ANY_REPLY, CLIMATE_NOTE, NOW_NOTES, ONE_RATE_NOTE, PERSON_NOTE, SUGGEST_NOTE, WITHOUT_TOOLS,
                              WORLD_NOTE, YES_NO_NOTE, add_first, anyones_note, has_note, newest_user_text, pointing_note,
                              said_notes)
from app.answers.spelling import with_spelling_hint
from app.engine.api import Priority, SamplingParams
from app.web.realtime import server_events as ev
from app.web.realtime.client_events import ResponseCancel, ResponseCreate
from app.web.realtime.conversation import Context
from app.web.realtime.function_calls import ToolUse, response_tool_use
from app.web.realtime.pace import asked_speed, pace_notes
from app.web.realtime.response_output import ResponseOutput
from app.web.realtime.state import SessionState
from app.web.realtime.wire import ProtocolError
from app.web.reply import Output, Reply, StageError
from app.web.timing import Timing

if TYPE_CHECKING:
    from app.web.realtime.session import Session

RECENT_REPLIES = 8  # replies kept for conversation.item.truncate
MAX_SIDE_RESPONSES = 2  # out-of-band responses running at once per session
# How long a stopped reply's task may take to end (it takes milliseconds) before the session goes on without it:
# the session reads no client events while it waits.
STOP_WAIT_S = 5.0

log = logging.getLogger(__name__)


class Responses:
    """The session's replies: the active one, the out-of-band ones, and the recent ones (for truncate)."""

    def __init__(self, session: Session):
        self.session = session
        self.active: Reply | None = None
        self._task: asyncio.Task | None = None
        self._side: dict[str, tuple[Reply, asyncio.Task]] = {}
        self._recent: deque[Reply] = deque(maxlen=RECENT_REPLIES)
        self._outputs: dict[str, ResponseOutput] = {}  # by reply id, until response.done
        self.playback_end = 0.0  # perf_counter time when the client will have played all audio sent

    def is_active(self, reply: Reply) -> bool:
        return self.active is reply

    def owns(self, item_id: str) -> bool:
        return self.active is not None and self.active.item_id == item_id

    def recent(self, item_id: str) -> Reply | None:
        return next((r for r in self._recent if r.item_id == item_id), None)

    def playing(self) -> bool:
        return time.perf_counter() < self.playback_end

    def assistant_audible(self) -> bool:
        """The echo guard's switch: reply audio is being produced or still playing at the client."""
        return (self.active is not None and self.active.output_audio) or self.playing()

    # ------------------------------------------------------------------ producing

    def prompt(self, instructions: str | None, context: Context | None, extra_user: str | None = None, *,
               hints: bool = True, tool_use: ToolUse | None = None) -> list[dict[str, str]]:  # fmt: skip
        """The chat messages of a reply: the conversation so far (or ``context``), plus ``extra_user``. A session on the
        server's own system prompt gets ``limits_prompt`` after it where the reply (``tool_use``: the session's unless
        given) has no tools. With ``hints``, a newest user message that asks how a word is spelled gets the word's
        letters (``spelling_hints``), one that asks for a unit conversion or a sum its figure (``conversion_hints``), and one the
        model answers "Yes" by habit the answer to say and one asking for a suggestion the word to suggest, where the
        session is on the server's own system prompt (``answer_hints``, ``app/answers/notes.py``); none where the
        response brings its own ``instructions`` (a task of the client's, not an answer)."""
        system = instructions
        tools = (tool_use or self.session_tool_use()).active
        if system is None:
            system = self._system(self.session.config.instructions, tools=tools)
        messages = [{"role": "system", "content": system}]
        if context is None:
            messages += self.session.conversation.context()
        else:
            messages += [{"role": c.role, "content": c.text} for c in context if c.text]
        if extra_user is not None:
            messages.append({"role": "user", "content": extra_user})
        if not hints or instructions is not None:
            return messages
        if self.session.settings.spelling_hints:
            messages = with_spelling_hint(messages)
        if self.session.settings.conversion_hints:
            messages = with_conversion_hint(messages)
        return self._answer_notes(messages, self.session.config.instructions, tools=tools)

    def session_tool_use(self) -> ToolUse:
        """The session's tools and choice: a reply's without its own, and the end-of-turn score's (one prompt prefix)."""
        return ToolUse(self.session.config.tools, self.session.config.tool_choice)

    def prepare(
        self, messages: list[dict[str, str]], *, voice: bool, timing: Timing, output_audio: bool | None = None,
        max_tokens: int | str | None = None, in_conversation: bool = True, priority: Priority | None = None,
        metadata: dict[str, str] | None = None, tool_use: ToolUse | None = None, end_probs: tuple[int, ...] = (),
    ) -> Reply:  # fmt: skip
        """A reply to ``messages`` with the session's settings (``tool_use``: the session's tools unless
        given); started by the caller. ``end_probs``: token ids whose probabilities after the user's words its prefill
        reads (``Reply.probed``: the end-of-turn score of a speculative turn)."""
        session, settings = self.session, self.session.settings
        limit = min(max_tokens, settings.max_new_tokens) if isinstance(max_tokens, int) else session.config.max_output_tokens
        tool_use = tool_use or self.session_tool_use()
        return Reply(
            engine=session.parts.engine, tts=session.parts.tts, messages=messages,
            params=SamplingParams(temperature=settings.temperature, top_p=settings.top_p,
                                  repetition_penalty=settings.repetition_penalty,
                                  phrase_repeat_limit=settings.phrase_repeat_limit,
                                  max_tokens=limit, token_probs=end_probs, token_probs_at="user_words_end",
                                  call_floor=settings.tool_call_floor if self.floors_calls(tool_use) else 0.0),
            priority=priority or (Priority.VOICE if voice else Priority.TEXT), session_id=session.id,
            output_audio=session.config.output_audio if output_audio is None else output_audio,
            output_rate=session.config.output_rate, output_speed=self._asked_speed(messages) or session.config.speed,
            voice_turn=voice, timing=timing,
            in_conversation=in_conversation, metadata=metadata,
            tool_use=tool_use, without_tools=self.without_tools,
            name_floor=settings.tool_name_floor, value_floor=settings.tool_value_floor,
        )  # fmt: skip

    def _asked_speed(self, messages: list[dict[str, str]]) -> float | None:
        """The speed a reply on ``messages`` was asked to speak at in words (``pace``), where the voice changes speed."""
        return asked_speed(messages, self.session.config.speed) if self.session.parts.tts.changes_speed else None

    def _system(self, instructions: str, *, tools: bool) -> str:
        """The system message of a reply on the session's ``instructions``: the server's own system prompt gets
        ``limits_prompt`` after it where the reply has no tools; a client's instructions stay as written."""
        settings = self.session.settings
        return settings.default_instructions(tools=tools) if instructions == settings.system_prompt else instructions

    def floors_calls(self, tool_use: ToolUse) -> bool:
        """Whether a reply with ``tool_use`` calls only from ``tool_call_floor``'s share of its first token (one that
        may call or answer in words, on an engine that applies the floor)."""
        return (tool_use.active and tool_use.choice == "auto" and self.session.parts.engine.floors_calls
                and self.session.settings.tool_call_floor > 0)

    def without_tools(self, messages: list[dict[str, str]]) -> list[dict[str, str]]:
        """A reply's ``messages`` as a reply without tools has them (``_system``, and the notes a reply without tools
        gets: a question about the day or time, a request only a tool meets)."""
        if not messages or messages[0].get("role") != "system":
            return messages
        system = messages[0]["content"]
        return self._answer_notes([{**messages[0], "content": self._system(system, tools=False)}, *messages[1:]],
                                  system, tools=False)  # fmt: skip

    def _answer_notes(self, messages: list[dict[str, str]], instructions: str, *, tools: bool) -> list[dict[str, str]]:
        """``answer_hints``' notes (``app/answers/notes.py``) for a reply on ``instructions``: on the server's own system
        prompt only; those of a reply without tools (the clock, requests only a tool meets) only where ``_system`` adds
        ``limits_prompt``, whose examples they follow, and before those the ones read from the conversation (``said_notes``:
        the last reply said again, a number or name given, the last question in full, a coin or dice drawn), a request
        to speak slower or faster (where the voice can: ``pace``), and those for any reply (``ANY_REPLY``); someone in
        danger or in crisis (``NOW_NOTES``) gets what to do now alone."""
        settings = self.session.settings
        if not settings.answer_hints or instructions != settings.system_prompt:
            return messages
        last = newest_user_text(messages)
        if last is not None and has_note(last):  # a reply written again without tools keeps the one it has
            return messages
        if (now := add_first(NOW_NOTES, messages)) is not messages:  # what to do now, alone
            return now
        messages = SUGGEST_NOTE.add(PERSON_NOTE.add(messages))
        said = said_notes(messages, figures=settings.conversion_hints)
        pace = pace_notes(self.session.config.speed) if self.session.parts.tts.changes_speed else (ONE_RATE_NOTE,)
        pointing = pointing_note(messages)  # late: "Can you say it slower?" is no question about what it named
        late = tuple(note for note in (anyones_note(messages), pointing) if note is not None)
        any_reply = (*said, *pace, *ANY_REPLY, CLIMATE_NOTE, *late, YES_NO_NOTE, WORLD_NOTE)
        return add_first(any_reply if tools or not settings.limits_prompt else (*WITHOUT_TOOLS, *any_reply), messages)

    async def create(self, event: ResponseCreate) -> None:
        if self.active is not None and not event.out_of_band:
            raise ProtocolError("conversation_already_has_active_response",
                                f"reply {self.active.id} is still in progress; cancel it first")  # fmt: skip
        if event.out_of_band and len(self._side) >= MAX_SIDE_RESPONSES:
            raise ProtocolError("too_many_responses", f"at most {MAX_SIDE_RESPONSES} out-of-band responses may run at once")
        context = None if event.input is None else self.session.conversation.resolve(event.input)
        tool_use = response_tool_use(event.tools, event.tool_choice, self.session.config, self.session.parts.engine)
        last_user = next((e for e in reversed(self.session.conversation.entries) if e.role == "user"), None)
        reply = self.prepare(
            [], voice=not event.out_of_band and bool(last_user and last_user.spoken),
            timing=Timing(speech_end=time.perf_counter()),  # no endpointing or ASR stage
            output_audio=False if event.out_of_band else event.output_audio, max_tokens=event.max_output_tokens,
            in_conversation=not event.out_of_band, metadata=event.metadata,
            priority=Priority.BACKGROUND if event.out_of_band else None, tool_use=tool_use,
        )  # fmt: skip
        build = lambda: self.prompt(event.instructions, context, tool_use=tool_use)  # noqa: E731  once every item has its words
        if event.out_of_band:
            task = self._start(reply, build)
            self._side[reply.id] = (reply, task)
            task.add_done_callback(lambda _: self._side.pop(reply.id, None))
        else:
            self.launch(reply, build)

    def _start(self, reply: Reply, build: Callable[[], list[dict[str, str]]] | None) -> asyncio.Task:
        output = self._open(reply)
        return asyncio.create_task(self._send(reply, output, build), name=f"reply-{reply.id}")

    async def _stop(self, reply: Reply, task: asyncio.Task) -> None:
        """Cancel a reply's task and wait for it. One already finishing (storing what it said, then ``response.done``)
        is only waited for: cancelled there, it would end without its ``response.done``."""
        if not reply.finished:
            task.cancel()
        await _ended(task)
        if not reply.finished:  # cancelled before it ran
            await self._finish(reply, "cancelled", {"type": "cancelled", "reason": reply.cancel_reason},
                               self._outputs[reply.id])  # fmt: skip

    def launch(self, reply: Reply, build: Callable[[], list[dict[str, str]]] | None = None) -> None:
        """Make ``reply`` the conversation's response and send it (``build``: its prompt, made when due)."""
        self.active = reply
        self._task = self._start(reply, build)
        if not self.session.state.is_(SessionState.LISTENING):
            self.session.state.move(SessionState.THINKING)

    # ------------------------------------------------------------------ sending

    def _open(self, reply: Reply) -> ResponseOutput:
        """The events that open a response, sent at once (a cancel may come before its task runs); a reply
        that may call tools opens its message when its first text comes."""
        self.session.send(ev.response_created(self._response(reply, "in_progress")))
        output = self._outputs[reply.id] = ResponseOutput(self.session, reply)
        if not reply.tool_use.active:
            output.open_message()
        return output

    async def _send(self, reply: Reply, output: ResponseOutput, build: Callable[[], list[dict[str, str]]] | None) -> None:
        """Send a reply's events and audio as they come; finish it (stored, then response.done). With
        ``build``, the reply starts here, once every item of the conversation has its words."""
        session = self.session
        ends_expected = 2 if reply.output_audio else 1
        finish_reason: str | None = None
        status: ev.ResponseStatus = "completed"
        details: dict[str, Any] | None = None
        try:
            if build is not None:
                await session.conversation.settled()
                reply.messages = build()
                reply.output_speed = self._asked_speed(reply.messages) or session.config.speed
                reply.start()
            if reply.in_conversation and self._asked_speed(reply.messages) and reply.output_speed != session.config.speed:
                session.set_speed(reply.output_speed)  # the reply that says it speaks slower or faster is sent
            out = await self._first_output(reply)
            while True:
                if out.kind == "text":
                    reply.sent_text += out.text
                    session.send(output.open_message().text_delta(out.text),
                                 None if reply.output_audio else self._stamp_sent(reply))  # fmt: skip
                elif out.kind == "audio":
                    self._send_audio(reply, output.open_message(), out.clause, out.pcm)
                elif out.kind == "call" and out.call is not None:
                    await output.send_call(out.call)
                elif out.kind == "end":
                    ends_expected -= 1
                    finish_reason = out.finish_reason if out.finish_reason != "audio" else finish_reason
                elif out.kind == "error" and out.error is not None:
                    raise out.error
                if not ends_expected:
                    break
                out = await reply.outputs.get()
            if finish_reason == "length":
                status, details = "incomplete", {"type": "incomplete", "reason": "max_output_tokens"}
        except StageError as error:
            reply.stop()
            status, details = "failed", {"type": "failed", "error": {"code": error.code, "message": str(error)}}
            session.error(ProtocolError(error.code, f"the reply failed ({error}); please try again"))
        except asyncio.CancelledError:
            reply.stop()
            status, details = "cancelled", {"type": "cancelled", "reason": reply.cancel_reason}
        if not reply.finished:  # finished already where its task outlived STOP_WAIT_S
            await self._finish(reply, status, details, output)

    async def _first_output(self, reply: Reply) -> Output:
        """The reply's first output, within ``reply_start_timeout_s``: an overloaded server says so (``server_busy``)
        and frees the request, instead of leaving the turn waiting."""
        limit = self.session.settings.reply_start_timeout_s
        try:  # not wait_for: on Python 3.11 it drops a cancel that comes as the output does, and the reply never ends
            async with asyncio.timeout(limit or None):
                return await reply.outputs.get()
        except TimeoutError:
            raise StageError("llm", f"no reply started within {limit:g} s; the server is busy", "server_busy") from None

    def _stamp_sent(self, reply: Reply) -> Callable[[], None] | None:
        """A callback for the reply's first frame to the client: stamps when it left the outbox."""
        if reply.send_stamp_armed:
            return None
        reply.send_stamp_armed = True

        def stamp() -> None:
            if reply.timing.first_sent is None:
                reply.timing.first_sent = time.perf_counter()
            if self.active is reply and self.session.state.is_(SessionState.THINKING):
                self.session.state.move(SessionState.SPEAKING)

        return stamp

    def _response(self, reply: Reply, status: ev.ResponseStatus, **fields: Any) -> dict[str, Any]:
        return ev.response_object(reply.id, status=status, output_audio=reply.output_audio, metadata=reply.metadata,
                                  conversation_id=self.session.id if reply.in_conversation else None, **fields)  # fmt: skip

    def _send_audio(self, reply: Reply, content: ev.ContentEvents, clause: int, pcm: bytes) -> None:
        samples = len(pcm) // 2
        reply.clauses[clause].samples += samples
        self.playback_end = max(self.playback_end, time.perf_counter()) + samples / reply.output_rate
        on_sent = self._stamp_sent(reply)
        if self.session.binary_audio:
            self.session.outbox.audio(pcm, on_sent)
        else:
            self.session.send(content.audio_delta(pcm), on_sent)

    async def _finish(
        self, reply: Reply, status: ev.ResponseStatus, details: dict[str, Any] | None, output: ResponseOutput
    ) -> None:
        """Store what the user got (as heard), then the closing events; ``response.done`` last."""
        session = self.session
        reply.finished = True
        finished = status in ("completed", "incomplete")
        if finished:
            text = reply.text.strip()
        else:  # what reached the user: the spoken clauses, or the text already shown
            text = reply.spoken_text() if reply.output_audio else reply.sent_text.strip()
        content = output.content
        if content is not None:
            if finished:
                for event in content.done(text):
                    session.send(event)
                session.send(content.part_done(text))
            item = ev.message_item(reply.item_id, "assistant", text=text, audio=reply.output_audio,
                                   status="completed" if status == "completed" else "incomplete")  # fmt: skip
            await output.conclude_message(item, text)
        if reply.in_conversation and content is not None:
            self._recent.append(reply)
        del self._outputs[reply.id]
        usage = ev.usage(reply.input_tokens, reply.output_tokens)
        latency = reply.timing.breakdown()
        session.send(ev.response_done(self._response(reply, status, output=output.items, status_details=details,
                                                     usage=usage, latency=latency)))  # fmt: skip
        if reply.in_conversation:  # out-of-band work is not a turn of the conversation
            if latency["total_ms"] is not None and finished:
                session.last_total_ms = latency["total_ms"]
            session.parts.telemetry.record_response("completed" if status == "incomplete" else status, latency,
                                                    text_only=not reply.output_audio and not reply.voice_turn,
                                                    voice_turn=reply.voice_turn)  # fmt: skip
        if self.active is reply:
            self.active, self._task = None, None
            session.settle()

    async def interrupt(self, reason: str, *, notice: dict[str, Any] | None = None) -> None:
        """Barge-in / response.cancel: stop the reply at once, tell the client, then close the reply."""
        reply, task = self.active, self._task
        if reply is not None:
            reply.cancel_reason = reason
            reply.stop()  # engine + TTS cancelled before anything is sent
        self.playback_end = 0.0
        if notice is not None:
            self.session.send(notice)
        if task is not None and reply is not None:
            await self._stop(reply, task)

    async def cancel(self, event: ResponseCancel) -> None:
        side = self._side.get(event.response_id or "")
        if side is not None:
            reply, task = side
            reply.cancel_reason = "client_cancelled"
            await self._stop(reply, task)
            return
        if self.active is None or (event.response_id and event.response_id != self.active.id):
            raise ProtocolError("response_not_found", "no such reply in progress", param="response_id")
        await self.interrupt("client_cancelled")

    async def close(self) -> None:
        """Stop every reply; one finishing is left to store what it said, for a resumed session to find."""
        running = [(self.active, self._task), *self._side.values()]
        for reply, task in running:
            if reply is not None and task is not None:
                if not reply.finished:
                    reply.stop()
                    task.cancel()
                with contextlib.suppress(Exception):
                    await _ended(task)


async def _ended(task: asyncio.Task) -> None:
    """Wait for a cancelled task to end; a cancel of the task that waits is passed on. One that has not ended after
    ``STOP_WAIT_S`` (a bug: something in it swallowed the cancel) is logged and left, so that its session goes on."""
    done, _ = await asyncio.wait({task}, timeout=STOP_WAIT_S)
    if not done:
        log.error("%s has not ended %g s after it was cancelled; the session goes on without it", task.get_name(), STOP_WAIT_S)
    elif not task.cancelled():
        task.result()
