"""One conversation over one WebSocket: the wiring of its parts and the dispatch of client events.

A client event is parsed (``client_events``), then handled by the part named after its family:
``input_audio`` (the input buffer and the VAD), ``conversation`` (items), ``responses`` (replies);
``turns`` joins them for spoken turns. Everything said goes through an :class:`Outbox` (bounded:
a client that stops reading is dropped, the server is not). The session's state is explicit
(``state.py``); ``lock`` orders short bookkeeping between client events and VAD events and is never
held across ASR or LLM work.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import replace
from typing import Any, Awaitable, Callable, Coroutine

import numpy as np

from app.web.limits import SessionLimits
from app.web.outbox import Outbox
from app.web.realtime import client_events as ce
from app.web.realtime import server_events as ev
from app.web.realtime.client_parsing import parse_client_event
from app.web.realtime.conversation import Conversation
from app.web.realtime.input_audio import InputAudio
from app.web.realtime.parts import SharedParts, Transcription
from app.web.realtime.responses import Responses
from app.web.realtime.session_config import OPENAI_PCM_RATE, SessionConfig, TurnDetection, apply_session_update
from app.web.realtime.state import SessionState, StateMachine
from app.web.realtime.turns import Turns
from app.web.realtime.wire import ProtocolError, decode_text_frame

log = logging.getLogger(__name__)
RATE_WINDOW_S = 1.0  # the message rate limit is per second


class Session:
    """One client's conversation. Feed it ``on_text`` / ``on_audio``; it answers through the outbox."""

    def __init__(self, session_id: str, parts: SharedParts, outbox: Outbox, *, binary_audio: bool):
        self.id = session_id
        self.parts = parts
        self.settings = settings = parts.settings
        self.outbox = outbox
        self.binary_audio = binary_audio
        self.connected_at = time.time()
        self.last_total_ms: float | None = None
        self.default_vad = TurnDetection(silence_duration_ms=settings.vad_silence_ms, threshold=settings.vad_threshold,
                                         prefix_padding_ms=settings.vad_preroll_ms)  # fmt: skip
        semantic = settings.turn_detection != "server_vad" and parts.end_of_turn is not None
        self.config = SessionConfig(
            instructions=settings.system_prompt, output_audio=True, input_rate=OPENAI_PCM_RATE,
            output_rate=settings.output_sample_rate,
            turn_detection=replace(self.default_vad, type="semantic_vad") if semantic else self.default_vad,
            max_output_tokens=settings.max_new_tokens, model=settings.llm_model,
            speed=settings.tts_speed if parts.tts.changes_speed else 1.0,
        )  # fmt: skip
        self.state = StateMachine()
        self.lock = asyncio.Lock()
        self.limits = SessionLimits(settings)
        self.conversation = Conversation(self)
        self.audio_in = InputAudio(self)
        self.turns = Turns(self)
        self.responses = Responses(self)
        self._tasks: set[asyncio.Task] = set()
        self._playback_timer: asyncio.TimerHandle | None = None
        self._handlers: dict[type, Callable[[Any], Awaitable[None]]] = {
            ce.SessionUpdate: self._update_session,
            ce.AudioAppend: self.audio_in.append,
            ce.AudioCommit: self.audio_in.commit,
            ce.AudioClear: self.audio_in.clear,
            ce.ItemCreate: self.conversation.create,
            ce.ItemRetrieve: self.conversation.retrieve,
            ce.ItemDelete: self.conversation.delete,
            ce.ItemTruncate: self.conversation.truncate,
            ce.ResponseCreate: self.responses.create,
            ce.ResponseCancel: self.responses.cancel,
        }

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Greet the client, tell it its limits, replay a resumed conversation, start the audio loop."""
        self.send(ev.session_created(self._session_wire()))
        self.send(ev.rate_limits_updated([("requests", int(self.settings.max_messages_per_s * RATE_WINDOW_S),
                                           int(self.settings.max_messages_per_s * RATE_WINDOW_S), RATE_WINDOW_S)]))  # fmt: skip
        await self.conversation.load()
        self.audio_in.start()

    async def close(self) -> None:
        """The client left: cancel everything in flight (the engine frees its KV, TTS drops its work)."""
        await self.audio_in.stop()
        self.turns.close()
        await self.responses.close()
        for task in list(self._tasks):
            task.cancel()
        if self._playback_timer is not None:
            self._playback_timer.cancel()
        self.state.move(SessionState.CLOSED)

    def settle(self) -> None:
        """After a turn or a reply ends: the state that what is left in flight gives."""
        if self.state.is_(SessionState.CLOSED) or (self.state.is_(SessionState.LISTENING) and self.turns.speech_item is not None):
            return
        reply = self.responses.active
        if reply is not None:
            target = SessionState.SPEAKING if reply.timing.first_sent is not None else SessionState.THINKING
        elif self.turns.committed:
            target = SessionState.THINKING
        elif self.responses.playing() and self.state.is_(SessionState.SPEAKING):
            if self._playback_timer is not None:
                self._playback_timer.cancel()
            delay = self.responses.playback_end - time.perf_counter()
            self._playback_timer = asyncio.get_running_loop().call_later(delay, self.settle)
            return
        else:
            target = SessionState.IDLE
        self.state.move(target)

    def describe(self) -> dict[str, Any]:
        """This session on the dashboard (the id shortened: a whole id would let anyone resume it)."""
        return {
            "id": self.id[:8],
            "state": self.state.state.value,
            "connected_s": round(time.time() - self.connected_at, 1),
            "turns": self.conversation.user_turns,
            "voice_out": self.config.output_audio,
            "last_total_ms": self.last_total_ms,
        }

    # ------------------------------------------------------------------ input

    async def on_text(self, frame: str | bytes) -> None:
        try:
            event = parse_client_event(decode_text_frame(frame), max_text_chars=self.settings.max_text_chars)
        except ProtocolError as error:
            self.error(error)
            return
        await self._guarded(self._handle(event), event.event_id, type(event).__name__)

    async def _handle(self, event: ce.ClientEvent) -> None:
        async with self.lock:
            await self._handlers[type(event)](event)

    async def on_audio(self, frame: bytes) -> None:
        """A binary frame: PCM16 mono 16 kHz where binary audio is on; anything else is a mistake."""
        if not self.binary_audio:
            self.error(ProtocolError("unexpected_binary_frame", "binary frames carry audio only with ?audio=binary; "
                                     "send events as JSON in text frames"))  # fmt: skip
        elif frame[:1] == b"{" and frame.rstrip()[-1:] == b"}" and b'"type"' in frame[:4096]:
            self.error(ProtocolError("unexpected_binary_frame", "this JSON event came in a binary frame, which carries "
                                     "audio; send events as text frames"))  # fmt: skip
        else:
            await self._guarded(self._binary_audio(frame), None, "binary audio")

    async def _binary_audio(self, frame: bytes) -> None:
        self.audio_in.binary_frame(frame)

    async def _guarded(self, work: Awaitable[None], event_id: str | None, what: str) -> None:
        """A client mistake becomes its error event; a bug or a failed part must not end the conversation."""
        try:
            await work
        except ProtocolError as error:
            error.event_id = error.event_id or event_id
            self.error(error)
        except Exception:  # IllegalTransition included
            log.exception("handling %s failed in session %s", what, self.id[:8])
            self.error(ProtocolError("internal_error", "the server failed to handle this event", event_id=event_id))

    # ------------------------------------------------------------------ session.update

    def _session_wire(self) -> dict[str, Any]:
        return self.config.to_wire(self.id, self.settings.max_new_tokens)

    async def _update_session(self, event: ce.SessionUpdate) -> None:
        old = self.config
        self.config = apply_session_update(old, event.session, defaults=self.default_vad,
                                           max_tokens_limit=self.settings.max_new_tokens,
                                           tools_supported=self.parts.engine.supports_tools,
                                           end_of_turn_supported=self.parts.end_of_turn is not None,
                                           asr_languages=self.parts.recognizer.languages,
                                           speed_supported=self.parts.tts.changes_speed)  # fmt: skip
        self.audio_in.reconfigure(old.turn_detection, self.config.turn_detection, self.config.input_rate != old.input_rate)
        self.send(ev.session_updated(self._session_wire()))

    def set_speed(self, speed: float) -> None:
        """The session's speaking speed changed by the server (the user asked for it in words): the client is told as
        after its own ``session.update``."""
        self.config = replace(self.config, speed=speed)
        self.send(ev.session_updated(self._session_wire()))

    # ------------------------------------------------------------------ output

    def send(self, event: dict[str, Any], on_sent: Callable[[], None] | None = None) -> None:
        self.outbox.event(event, on_sent)

    def error(self, error: ProtocolError) -> None:
        self.parts.telemetry.errors.labels(code=error.code).inc()
        self.send(ev.error(error.code, error.message, param=error.param, event_id=error.event_id))

    def send_transcript(self, item_id: str, transcript: Transcription | None) -> None:
        text = transcript.text.strip() if transcript is not None else ""
        self.send(ev.transcription_completed(
            item_id, text, language=transcript.language if transcript else "",
            audio_s=transcript.duration_s if transcript else 0.0, asr_ms=round(transcript.asr_s * 1000, 1) if transcript else 0.0,
        ))  # fmt: skip

    async def transcribe(self, audio: np.ndarray, *, final: bool = True) -> Transcription | None:
        """The session's speech, in its transcription language (the server's ``asr_language`` unless the session
        chose one)."""
        return await self.parts.recognizer.transcribe(audio, final=final, session_id=self.id,
                                                      language=self.config.transcription.get("language"))  # fmt: skip

    def spawn(self, coro: Coroutine[Any, Any, None]) -> asyncio.Task:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task
