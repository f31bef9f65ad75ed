"""One conversation over one WebSocket: VAD -> ASR -> LLM -> clauses -> TTS -> audio out.

The session is a state machine (idle, listening, thinking, speaking) driven by client events,
audio and VAD events. It never touches the socket: everything it says goes through an
:class:`Outbox` (bounded: a client that stops reading is dropped, the server is not).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from dataclasses import dataclass
from typing import Any, Awaitable, Callable

import numpy as np

from app.audio.pcm import pcm16_to_float32
from app.audio.resample import StreamResampler, resample
from app.config import Settings
from app.engine.api import Priority, SamplingParams
from app.vad import Endpointer, PartialAudio, SpeechPaused, SpeechResumed, SpeechStarted, SpeechStopped, VadEvent
from app.web import protocol as p
from app.web.history import HistoryStore, StoredMessage
from app.web.limits import SessionLimits
from app.web.outbox import Outbox
from app.web.reply import Reply, StageError, Timing
from app.web.telemetry import Telemetry

log = logging.getLogger(__name__)

INPUT_RATE = 16000
AUDIO_BACKLOG_S = 10.0  # audio queued for VAD beyond this is refused (client sends faster than real time)
RECENT_REPLIES = 8  # replies kept for conversation.item.truncate
MAX_SIDE_RESPONSES = 2  # out-of-band responses running at once per session
HISTORY_LIMIT = 1000  # messages loaded when a session resumes


@dataclass
class SharedParts:
    """What every session shares: one engine, one recogniser, one TTS worker, one history store."""

    settings: Settings
    engine: Any  # app.engine LLMBackend
    recognizer: Any  # app.asr SpeechRecognizer
    tts: Any  # app.tts TTSWorker
    history: HistoryStore
    telemetry: Telemetry


@dataclass(eq=False)
class VoiceTurn:
    """A user utterance on its way to a reply; speculative until ``committed`` is set."""

    item_id: str
    audio: np.ndarray
    timing: Timing
    respond: bool
    committed: asyncio.Event
    task: asyncio.Task | None = None
    reply: Reply | None = None


class Session:
    """One client's conversation. Feed it ``on_text`` / ``on_audio``; it answers through the outbox."""

    def __init__(self, session_id: str, parts: SharedParts, outbox: Outbox, *, binary_audio: bool):
        self.id = session_id
        self.parts = parts
        self.settings = parts.settings
        self.outbox = outbox
        self.binary_audio = binary_audio
        self.connected_at = time.time()
        self.turns = 0
        self.last_total_ms: float | None = None
        self.default_vad = p.TurnDetection(
            silence_duration_ms=self.settings.vad_silence_ms,
            threshold=self.settings.vad_threshold,
            prefix_padding_ms=self.settings.vad_preroll_ms,
        )
        self.config = p.SessionConfig(
            instructions=self.settings.system_prompt,
            output_audio=True,
            input_rate=p.OPENAI_PCM_RATE,
            output_rate=self.settings.output_sample_rate,
            turn_detection=self.default_vad,
            max_output_tokens=self.settings.max_new_tokens,
            model=self.settings.llm_model,
        )
        self.messages: list[StoredMessage] = []
        self.limits = SessionLimits(self.settings)
        self.endpointer = self._make_endpointer(self.default_vad)
        self._append_resampler: StreamResampler | None = None
        self._audio_queue: asyncio.Queue[tuple[np.ndarray, float]] = asyncio.Queue()
        self._queued_samples = 0
        self._stream_clock: deque[tuple[float, float]] = deque(maxlen=2000)  # (stream end s, arrival)
        self._stream_s = 0.0
        self._manual_audio: list[np.ndarray] = []
        self._speech_item: str | None = None  # the user item the current speech will become
        self._speculative: VoiceTurn | None = None  # started in a pause, not yet committed
        self._committed: list[VoiceTurn] = []  # committed turns still in ASR (replies not yet started)
        self._reply: Reply | None = None  # the reply being sent
        self._reply_task: asyncio.Task | None = None
        self._side_replies: dict[str, asyncio.Task] = {}  # out-of-band responses, by response id
        self._recent: deque[Reply] = deque(maxlen=RECENT_REPLIES)
        self._playback_end = 0.0  # perf_counter time when the client will have played all audio sent
        self._partial_busy = False
        self._tasks: set[asyncio.Task] = set()
        self._audio_task: asyncio.Task | None = None
        self._lock = asyncio.Lock()  # serialises event handling against VAD handling

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Greet the client, replay a resumed conversation, start the audio loop."""
        self.messages = await self.parts.history.load(self.id, HISTORY_LIMIT)
        self.turns = sum(1 for m in self.messages if m.role == "user")
        self._send(p.server_event("session.created", session=self._session_wire()))
        previous = None
        for message in self.messages:
            item = p.message_item(message.item_id, message.role, text=message.text, audio=message.spoken)
            self._send(p.server_event("conversation.item.done", item=item, previous_item_id=previous))
            previous = message.item_id
        self._audio_task = asyncio.create_task(self._audio_loop(), name=f"audio-{self.id[:8]}")

    async def close(self) -> None:
        """The client left: cancel everything in flight (the engine frees its KV, TTS drops its work)."""
        if self._audio_task:
            self._audio_task.cancel()
        self._discard_speculative()
        for turn in list(self._committed):
            self._stop_turn(turn)
        if self._reply is not None:
            self._reply.stop()
        for task in [self._reply_task, *self._side_replies.values()]:
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        for task in list(self._tasks):
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            if self._audio_task:
                await self._audio_task

    @property
    def state(self) -> str:
        if self._reply is not None:
            return "speaking" if self._reply.timing.first_sent is not None and self._reply.output_audio else "thinking"
        if time.perf_counter() < self._playback_end:
            return "speaking"
        if self.endpointer.in_speech:
            return "listening"
        if self._committed:
            return "thinking"
        return "idle"

    def describe(self) -> dict[str, Any]:
        """This session on the dashboard (the id shortened: a whole id would let anyone resume it)."""
        return {
            "id": self.id[:8],
            "state": self.state,
            "connected_s": round(time.time() - self.connected_at, 1),
            "turns": self.turns,
            "voice_out": self.config.output_audio,
            "last_total_ms": self.last_total_ms,
        }

    # ------------------------------------------------------------------ input

    async def on_text(self, frame: str | bytes) -> None:
        try:
            event = p.parse_client_event(p.decode_text_frame(frame), max_text_chars=self.settings.max_text_chars)
        except p.ProtocolError as error:
            self._error(error)
            return
        async with self._lock:
            try:
                await self._dispatch(event)
            except p.ProtocolError as error:
                if error.event_id is None:
                    error.event_id = event.event_id
                self._error(error)
            except Exception:  # a bug or a failed part must not end the conversation
                log.exception("handling %s failed in session %s", type(event).__name__, self.id[:8])
                self._error(p.ProtocolError("internal_error", "the server failed to handle this event", event_id=event.event_id))

    async def on_audio(self, frame: bytes) -> None:
        """A binary frame: PCM16 mono 16 kHz."""
        if len(frame) % 2:
            self._error(p.ProtocolError("invalid_audio", f"binary audio frame has an odd length ({len(frame)} bytes)"))
            return
        self._queue_audio(pcm16_to_float32(frame))

    def _queue_audio(self, audio: np.ndarray) -> None:
        if not len(audio):
            return
        if not self.limits.audio.allow(len(audio) / INPUT_RATE):
            if self.limits.should_report("audio_rate_exceeded"):
                limit = self.settings.max_audio_s_per_min
                self._error(p.ProtocolError("audio_rate_exceeded", f"over {limit:g} s of audio per minute; audio dropped"))
            return
        if self._queued_samples + len(audio) > AUDIO_BACKLOG_S * INPUT_RATE:
            self._error(p.ProtocolError("audio_buffer_full", "audio arrives faster than real time; frame dropped"))
            return
        self._queued_samples += len(audio)
        self._audio_queue.put_nowait((audio, time.perf_counter()))

    async def _dispatch(self, event: p.ClientEvent) -> None:
        if isinstance(event, p.SessionUpdate):
            self._update_session(event)
        elif isinstance(event, p.AudioAppend):
            if self._append_resampler is None:
                self._append_resampler = StreamResampler(self.config.input_rate, INPUT_RATE)
            self._queue_audio(self._append_resampler.feed(pcm16_to_float32(event.pcm16)))
        elif isinstance(event, p.AudioCommit):
            await self._commit_input()
        elif isinstance(event, p.AudioClear):
            self._clear_input()
        elif isinstance(event, p.ItemCreate) and event.audio:
            await self._add_audio_item(event)
        elif isinstance(event, p.ItemCreate):
            await self._add_text_item(event)
        elif isinstance(event, p.ItemTruncate):
            await self._truncate(event)
        elif isinstance(event, p.ResponseCreate):
            self._create_response(event)
        elif isinstance(event, p.ResponseCancel):
            await self._cancel_response(event)

    # ------------------------------------------------------------------ session config

    def _session_wire(self) -> dict[str, Any]:
        return self.config.to_wire(self.id, self.settings.max_new_tokens)

    def _make_endpointer(self, vad: p.TurnDetection) -> Endpointer:
        settings = self.settings.model_copy(
            update={
                "vad_silence_ms": vad.silence_duration_ms,
                "vad_threshold": vad.threshold,
                "vad_preroll_ms": vad.prefix_padding_ms,
            }
        )
        return Endpointer(settings)

    def _update_session(self, event: p.SessionUpdate) -> None:
        old = self.config
        self.config = p.apply_session_update(
            old, event.session, defaults=self.default_vad, max_tokens_limit=self.settings.max_new_tokens
        )
        new_vad = self.config.turn_detection
        if new_vad is not None and (
            old.turn_detection is None
            or (new_vad.silence_duration_ms, new_vad.threshold, new_vad.prefix_padding_ms)
            != (old.turn_detection.silence_duration_ms, old.turn_detection.threshold, old.turn_detection.prefix_padding_ms)
        ):
            self.endpointer = self._make_endpointer(new_vad)
        if self.config.input_rate != old.input_rate:
            self._append_resampler = None
        self._send(p.server_event("session.updated", session=self._session_wire()))

    # ------------------------------------------------------------------ audio and VAD

    async def _audio_loop(self) -> None:
        """Feeds queued audio to the VAD (off the event loop) and acts on its events, in order."""
        while True:
            audio, arrived = await self._audio_queue.get()
            chunks, stamps = [audio], [arrived]
            while not self._audio_queue.empty():
                more, stamp = self._audio_queue.get_nowait()
                chunks.append(more)
                stamps.append(stamp)
            for chunk, stamp in zip(chunks, stamps):
                self._stream_s += len(chunk) / INPUT_RATE
                self._stream_clock.append((self._stream_s, stamp))
            pcm = np.concatenate(chunks) if len(chunks) > 1 else audio
            self._queued_samples -= len(pcm)
            if self.config.turn_detection is None:
                self._buffer_manual(pcm)
                continue
            async with self._lock:  # the endpointer is also used by commit/clear events
                self.endpointer.speaking = self._assistant_audible()
                try:
                    events = await asyncio.to_thread(self.endpointer.feed, pcm)
                except Exception:
                    log.exception("VAD failed in session %s", self.id[:8])
                    self._error(p.ProtocolError("stage_failed", "voice activity detection failed; audio dropped"))
                    continue
                for vad_event in events:
                    try:
                        await self._on_vad(vad_event)
                    except Exception:
                        log.exception("handling %s failed in session %s", type(vad_event).__name__, self.id[:8])
                        self._error(p.ProtocolError("internal_error", "the server failed to handle your speech"))

    def _buffer_manual(self, pcm: np.ndarray) -> None:
        held = sum(len(a) for a in self._manual_audio)
        if held + len(pcm) > self.settings.max_utterance_s * INPUT_RATE:
            self._error(p.ProtocolError("audio_buffer_full", "input audio buffer is full; commit or clear it"))
            return
        self._manual_audio.append(pcm)

    def _wall_time(self, stream_s: float) -> float:
        """When the client's audio at stream time ``stream_s`` arrived here (perf_counter)."""
        for end_s, arrived in self._stream_clock:
            if end_s >= stream_s:
                return arrived
        return time.perf_counter()

    def _assistant_audible(self) -> bool:
        """The echo guard's switch: reply audio is being produced or still playing at the client."""
        return (self._reply is not None and self._reply.output_audio) or time.perf_counter() < self._playback_end

    async def _on_vad(self, event: VadEvent) -> None:
        if isinstance(event, SpeechStarted):
            self._speech_item = p.new_id("item")
            for turn in self._committed:  # the user goes on: answer everything at the end instead
                turn.respond = False
                if turn.reply is not None:
                    turn.reply.stop()
                    turn.reply = None
            vad = self.config.turn_detection
            busy = self._reply is not None or time.perf_counter() < self._playback_end
            if busy and vad is not None and vad.interrupt_response:
                await self._interrupt("turn_detected", started=event)
                return
            self._send_speech_started(event)
        elif isinstance(event, PartialAudio):
            self._start_partial(event.audio)
        elif isinstance(event, SpeechPaused):
            vad = self.config.turn_detection
            if self.settings.speculative_asr and vad is not None and vad.create_response and self._reply is None:
                self._discard_speculative()
                self._speculative = self._begin_turn(event.audio, Timing(speculative=True), respond=True)
        elif isinstance(event, SpeechResumed):
            self._discard_speculative()
        elif isinstance(event, SpeechStopped):
            await self._speech_stopped(event)

    def _send_speech_started(self, event: SpeechStarted) -> None:
        self._send(
            p.server_event(
                "input_audio_buffer.speech_started",
                audio_start_ms=int(event.start_s * 1000),
                item_id=self._speech_item,
            )
        )

    async def _speech_stopped(self, event: SpeechStopped) -> None:
        item_id = self._speech_item or p.new_id("item")
        self._speech_item = None
        now = time.perf_counter()
        vad = self.config.turn_detection
        respond = bool(vad and vad.create_response) and not event.cut
        self._send(p.server_event("input_audio_buffer.speech_stopped", audio_end_ms=int(event.end_s * 1000), item_id=item_id))
        if event.cut:
            limit = self.settings.max_utterance_s
            self._error(p.ProtocolError("utterance_too_long", f"speech over {limit:g} s is cut into pieces; each is transcribed"))
        turn, self._speculative = self._speculative, None
        if turn is not None and respond:
            turn.item_id = item_id  # the speculative turn is this utterance: adopt it
        else:
            if turn is not None:
                self._stop_turn(turn)
            turn = self._begin_turn(event.audio, Timing(), respond=respond, item_id=item_id)
        turn.timing.speech_end = self._wall_time(event.end_s)
        turn.timing.turn_end = now
        self._commit(turn)

    def _commit(self, turn: VoiceTurn) -> None:
        self._committed.append(turn)
        previous = self.messages[-1].item_id if self.messages else None
        self._send(p.server_event("input_audio_buffer.committed", item_id=turn.item_id, previous_item_id=previous))
        item = p.message_item(turn.item_id, "user", text=None, audio=True, status="in_progress")
        self._send(p.server_event("conversation.item.added", item=item, previous_item_id=previous))
        turn.committed.set()

    async def _commit_input(self) -> None:
        """``input_audio_buffer.commit``: end the user turn now."""
        if self.config.turn_detection is None:
            audio = np.concatenate(self._manual_audio) if self._manual_audio else np.zeros(0, np.float32)
            self._manual_audio = []
            if not len(audio):
                raise p.ProtocolError("empty_input", "the input audio buffer is empty")
            now = time.perf_counter()
            turn = self._begin_turn(audio, Timing(speech_end=now, turn_end=now), respond=False)
            self._commit(turn)
            return
        events = self.endpointer.flush()
        if not events:
            raise p.ProtocolError("empty_input", "no speech in the input audio buffer")
        for vad_event in events:
            await self._on_vad(vad_event)

    def _clear_input(self) -> None:
        self._manual_audio = []
        self.endpointer.reset()
        self._discard_speculative()
        self._speech_item = None
        self._send(p.server_event("input_audio_buffer.cleared"))

    def _start_partial(self, audio: np.ndarray) -> None:
        if self._partial_busy or self._speech_item is None:
            return
        self._partial_busy = True
        item_id = self._speech_item
        self._spawn(self._partial(audio, item_id))

    async def _partial(self, audio: np.ndarray, item_id: str) -> None:
        try:
            transcript = await self.parts.recognizer.transcribe(audio, final=False, session_id=self.id)
        except Exception:
            log.exception("partial transcript failed")
            return
        finally:
            self._partial_busy = False
        if transcript is None or self._speech_item != item_id or not transcript.text.strip():
            return
        text = transcript.text.strip()
        self._send(
            p.server_event(
                "conversation.item.input_audio_transcription.delta",
                item_id=item_id,
                content_index=0,
                delta=text,
                transcript=text,
            )
        )

    # ------------------------------------------------------------------ turns

    def _begin_turn(self, audio: np.ndarray, timing: Timing, *, respond: bool, item_id: str | None = None) -> VoiceTurn:
        """Start ASR (and, if ``respond``, the reply) on an utterance; sent once ``committed`` is set."""
        turn = VoiceTurn(item_id or p.new_id("item"), audio, timing, respond, asyncio.Event())
        turn.task = asyncio.create_task(self._run_turn(turn), name=f"turn-{turn.item_id}")
        return turn

    def _discard_speculative(self) -> None:
        """The user talked on after a pause: whatever was started speculatively is thrown away."""
        turn, self._speculative = self._speculative, None
        if turn is not None:
            self._stop_turn(turn)

    def _stop_turn(self, turn: VoiceTurn) -> None:
        if turn.reply is not None and turn.reply is not self._reply:
            turn.reply.stop()
        if turn.task is not None and not turn.task.done():
            turn.task.cancel()
        self._turn_over(turn)

    async def _run_turn(self, turn: VoiceTurn) -> None:
        """ASR (possibly during the pause), a reply produced ahead, then sent once committed."""
        try:
            await self._transcribe_and_reply(turn)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("voice turn failed in session %s", self.id[:8])
            self._error(p.ProtocolError("internal_error", "the server failed to handle your speech"))
            if turn.reply is not None and turn.reply is not self._reply:
                turn.reply.stop()
            self._turn_over(turn)

    async def _transcribe_and_reply(self, turn: VoiceTurn) -> None:
        try:
            transcript = await self.parts.recognizer.transcribe(turn.audio, final=True, session_id=self.id)
        except asyncio.CancelledError:
            raise
        except Exception as error:
            log.exception("ASR failed in session %s", self.id[:8])
            await turn.committed.wait()
            self._error(p.ProtocolError("stage_failed", f"speech recognition failed: {error}"))
            self._turn_over(turn)
            return
        turn.timing.transcript = time.perf_counter()
        text = transcript.text.strip()
        if text and turn.respond and self._reply is None:
            turn.reply = self._make_reply(text_turn=False, output_audio=None, timing=turn.timing, extra_user=text)
            turn.reply.start()  # produced ahead; sent only once the turn is committed
        await turn.committed.wait()
        if turn.timing.transcript < (turn.timing.turn_end or 0):
            turn.timing.transcript = turn.timing.turn_end
        async with self._lock:
            self._send_transcript(turn.item_id, transcript)
            if not text:
                self._error(p.ProtocolError("empty_input", "no words were recognised in the speech"))
                self._turn_over(turn)
                return
            message = StoredMessage(turn.item_id, "user", text, spoken=True)
            await self._remember(message)
            previous = self.messages[-2].item_id if len(self.messages) > 1 else None
            item = p.message_item(turn.item_id, "user", text=text, audio=True)
            self._send(p.server_event("conversation.item.done", item=item, previous_item_id=previous))
            self._turn_over(turn)
            if turn.reply is not None:
                if turn.respond and self._reply is None:
                    self._launch_reply(turn.reply)
                else:
                    turn.reply.stop()

    def _turn_over(self, turn: VoiceTurn) -> None:
        if turn in self._committed:
            self._committed.remove(turn)

    async def _remember(self, message: StoredMessage) -> None:
        """Store first, then keep in memory: what the client is told is done is on disk."""
        await self.parts.history.add(self.id, message)
        self.messages.append(message)
        if message.role == "user":
            self.turns += 1

    def _send_transcript(self, item_id: str, transcript: Any) -> None:
        self._send(
            p.server_event(
                "conversation.item.input_audio_transcription.completed",
                item_id=item_id,
                content_index=0,
                transcript=transcript.text.strip(),
                language=transcript.language,
                asr_ms=round(transcript.asr_s * 1000, 1),
            )
        )

    def _check_new_item(self, item_id: str) -> None:
        if any(m.item_id == item_id for m in self.messages):
            raise p.ProtocolError("invalid_event", f"item id {item_id!r} already exists", param="item.id")

    async def _add_audio_item(self, event: p.ItemCreate) -> None:
        """A user message sent as recorded audio: transcribed at once and kept as its words."""
        self._check_new_item(event.item_id)
        audio = resample(pcm16_to_float32(event.audio), self.config.input_rate, INPUT_RATE)
        limit = self.settings.max_utterance_s
        if len(audio) > limit * INPUT_RATE:
            raise p.ProtocolError("utterance_too_long", f"audio items are limited to {limit:g} s", param="item.content")
        if not self.limits.audio.allow(len(audio) / INPUT_RATE):
            raise p.ProtocolError("audio_rate_exceeded", f"over {self.settings.max_audio_s_per_min:g} s of audio per minute")
        previous = self.messages[-1].item_id if self.messages else None
        pending = p.message_item(event.item_id, "user", text=None, audio=True, status="in_progress")
        self._send(p.server_event("conversation.item.added", item=pending, previous_item_id=previous))
        transcript = await self.parts.recognizer.transcribe(audio, final=True, session_id=self.id)
        self._send_transcript(event.item_id, transcript)
        text = transcript.text.strip()
        if not text:
            raise p.ProtocolError("empty_input", "no words were recognised in the audio", param="item.content")
        await self._remember(StoredMessage(event.item_id, "user", text, spoken=True))
        item = p.message_item(event.item_id, "user", text=text, audio=True)
        self._send(p.server_event("conversation.item.done", item=item, previous_item_id=previous))

    async def _add_text_item(self, event: p.ItemCreate) -> None:
        previous = self.messages[-1].item_id if self.messages else None
        self._check_new_item(event.item_id)
        message = StoredMessage(event.item_id, event.role, event.text, spoken=False)
        await self._remember(message)
        item = p.message_item(event.item_id, event.role, text=event.text, audio=False)
        self._send(p.server_event("conversation.item.added", item=item, previous_item_id=previous))
        self._send(p.server_event("conversation.item.done", item=item, previous_item_id=previous))

    # ------------------------------------------------------------------ replies

    def _make_reply(
        self,
        *,
        text_turn: bool,
        output_audio: bool | None,
        timing: Timing,
        extra_user: str | None = None,
        instructions: str | None = None,
        max_tokens: int | str | None = None,
        context: list[dict[str, str]] | None = None,
        priority: Priority | None = None,
        in_conversation: bool = True,
        metadata: dict[str, str] | None = None,
    ) -> Reply:
        """A reply to the conversation so far, or to ``context`` (the messages after the system prompt)."""
        messages = [{"role": "system", "content": instructions if instructions is not None else self.config.instructions}]
        if context is None:
            context = [{"role": m.role, "content": m.text} for m in self.messages if m.text]
        messages += context
        if extra_user is not None:
            messages.append({"role": "user", "content": extra_user})
        limit = self.config.max_output_tokens
        if isinstance(max_tokens, int):
            limit = min(max_tokens, self.settings.max_new_tokens)
        params = SamplingParams(
            temperature=self.settings.temperature, top_p=self.settings.top_p,
            repetition_penalty=self.settings.repetition_penalty, max_tokens=limit
        )
        return Reply(
            engine=self.parts.engine,
            tts=self.parts.tts,
            messages=messages,
            params=params,
            priority=priority or (Priority.TEXT if text_turn else Priority.VOICE),
            session_id=self.id,
            output_audio=self.config.output_audio if output_audio is None else output_audio,
            output_rate=self.config.output_rate,
            voice_turn=not text_turn,
            timing=timing,
            in_conversation=in_conversation,
            metadata=metadata,
        )

    def _create_response(self, event: p.ResponseCreate) -> None:
        if event.out_of_band:
            self._create_side_response(event)
            return
        if self._reply is not None:
            raise p.ProtocolError(
                "conversation_already_has_active_response",
                f"reply {self._reply.id} is still in progress; cancel it first",
            )
        last_user = next((m for m in reversed(self.messages) if m.role == "user"), None)
        timing = Timing(speech_end=time.perf_counter())  # typed: no endpointing or ASR stage
        reply = self._make_reply(
            text_turn=not (last_user and last_user.spoken),
            output_audio=event.output_audio,
            timing=timing,
            instructions=event.instructions,
            max_tokens=event.max_output_tokens,
            metadata=event.metadata,
        )
        reply.start()
        self._launch_reply(reply)

    def _create_side_response(self, event: p.ResponseCreate) -> None:
        """An out-of-band response (conversation 'none'): text over the given context, beside any reply,
        at background priority, and never stored (e.g. a summary or a classification for the client)."""
        if len(self._side_replies) >= MAX_SIDE_RESPONSES:
            raise p.ProtocolError(
                "too_many_responses", f"at most {MAX_SIDE_RESPONSES} out-of-band responses may run at once"
            )
        context = None
        if event.input is not None:
            stored = {m.item_id: m for m in self.messages}
            context = []
            for index, entry in enumerate(event.input):
                if isinstance(entry, p.InputMessage):
                    context.append({"role": entry.role, "content": entry.text})
                elif entry in stored:
                    context.append({"role": stored[entry].role, "content": stored[entry].text})
                else:
                    raise p.ProtocolError("item_not_found", f"no item {entry!r} in this conversation",
                                          param=f"response.input.{index}.id")  # fmt: skip
        reply = self._make_reply(
            text_turn=True,
            output_audio=False,
            timing=Timing(speech_end=time.perf_counter()),
            instructions=event.instructions,
            max_tokens=event.max_output_tokens,
            context=context,
            priority=Priority.BACKGROUND,
            in_conversation=False,
            metadata=event.metadata,
        )
        reply.start()
        task = asyncio.create_task(self._send_reply(reply), name=f"side-reply-{reply.id}")
        self._side_replies[reply.id] = task
        task.add_done_callback(lambda _: self._side_replies.pop(reply.id, None))

    def _launch_reply(self, reply: Reply) -> None:
        self._reply = reply
        self._reply_task = asyncio.create_task(self._send_reply(reply), name=f"reply-{reply.id}")

    async def _send_reply(self, reply: Reply) -> None:
        """Send a produced reply's events and audio as they come; finish it (stored, then response.done)."""
        ids = {"response_id": reply.id, "item_id": reply.item_id, "output_index": 0, "content_index": 0}
        audio = reply.output_audio
        self._send(p.server_event("response.created", response=self._response_object(reply, "in_progress")))
        item = p.message_item(reply.item_id, "assistant", text="", audio=audio, status="in_progress")
        if reply.in_conversation:
            previous = self.messages[-1].item_id if self.messages else None
            self._send(p.server_event("conversation.item.added", item=item, previous_item_id=previous))
        self._send(p.server_event("response.output_item.added", response_id=reply.id, output_index=0, item=item))
        part = {"type": "audio", "transcript": ""} if audio else {"type": "text", "text": ""}
        self._send(p.server_event("response.content_part.added", part=part, **ids))
        ends_expected = 2 if audio else 1
        finish_reason: str | None = None
        status, details = "completed", None
        try:
            while ends_expected:
                out = await reply.outputs.get()
                if out.kind == "text":
                    reply.sent_text += out.text
                    kind = "response.output_audio_transcript.delta" if audio else "response.output_text.delta"
                    self._send(p.server_event(kind, delta=out.text, **ids), on_sent=None if audio else self._stamp_sent(reply))
                elif out.kind == "audio":
                    self._send_audio(reply, out.clause, out.pcm, ids)
                elif out.kind == "end":
                    ends_expected -= 1
                    if out.finish_reason != "audio":
                        finish_reason = out.finish_reason
                elif out.kind == "error" and out.error is not None:
                    raise out.error
            if finish_reason == "length":
                status, details = "incomplete", {"type": "incomplete", "reason": "max_output_tokens"}
        except StageError as error:
            reply.stop()
            status, details = "failed", {"type": "failed", "error": {"code": "stage_failed", "message": str(error)}}
            self._error(p.ProtocolError("stage_failed", f"the reply failed ({error}); please try again"))
        except asyncio.CancelledError:
            reply.stop()
            status = "cancelled"
            details = {"type": "cancelled", "reason": reply.cancel_reason}
        await self._finish_reply(reply, status, details)

    def _stamp_sent(self, reply: Reply) -> Callable[[], None] | None:
        """A callback for the reply's first frame to the client: stamps when it left the outbox."""
        if reply.send_stamp_armed:
            return None
        reply.send_stamp_armed = True

        def stamp() -> None:
            if reply.timing.first_sent is None:
                reply.timing.first_sent = time.perf_counter()

        return stamp

    def _response_object(self, reply: Reply, status: str, **fields: Any) -> dict[str, Any]:
        return p.response_object(
            reply.id, status=status, output_audio=reply.output_audio, metadata=reply.metadata,
            conversation_id=self.id if reply.in_conversation else None, **fields,
        )  # fmt: skip

    def _send_audio(self, reply: Reply, clause: int, pcm: bytes, ids: dict[str, Any]) -> None:
        samples = len(pcm) // 2
        reply.clauses[clause].samples += samples
        now = time.perf_counter()
        self._playback_end = max(self._playback_end, now) + samples / reply.output_rate
        on_sent = self._stamp_sent(reply)
        if self.binary_audio:
            self.outbox.audio(pcm, on_sent)
        else:
            self._send(p.server_event("response.output_audio.delta", delta=p.encode_audio(pcm), **ids), on_sent=on_sent)

    async def _finish_reply(self, reply: Reply, status: str, details: dict[str, Any] | None) -> None:
        """Store what the user got (as heard), then the closing events; ``response.done`` last."""
        ids = {"response_id": reply.id, "item_id": reply.item_id, "output_index": 0, "content_index": 0}
        audio = reply.output_audio
        finished = status in ("completed", "incomplete")
        if finished:
            text = reply.text.strip()
        else:  # what reached the user: the spoken clauses, or the text already shown
            text = reply.spoken_text() if audio else reply.sent_text.strip()
        if finished:
            if audio:
                self._send(p.server_event("response.output_audio.done", **ids))
                self._send(p.server_event("response.output_audio_transcript.done", transcript=text, **ids))
            else:
                self._send(p.server_event("response.output_text.done", text=text, **ids))
            part = {"type": "audio", "transcript": text} if audio else {"type": "text", "text": text}
            self._send(p.server_event("response.content_part.done", part=part, **ids))
        item_status = "completed" if status == "completed" else "incomplete"
        item = p.message_item(reply.item_id, "assistant", text=text, audio=audio, status=item_status)
        if text and reply.in_conversation:
            with contextlib.suppress(Exception):  # a failed write must not leave the reply hanging
                await self._remember(StoredMessage(reply.item_id, "assistant", text, spoken=audio))
        self._send(p.server_event("response.output_item.done", response_id=reply.id, output_index=0, item=item))
        if reply.in_conversation:
            self._recent.append(reply)
            self._send(p.server_event("conversation.item.done", item=item, previous_item_id=None))
        latency = reply.timing.breakdown()
        usage = {"output_tokens": reply.output_tokens, "total_tokens": reply.output_tokens}
        response = self._response_object(reply, status, output=[item], status_details=details, usage=usage, latency=latency)
        self._send(p.server_event("response.done", response=response))
        if reply.in_conversation:  # out-of-band work is not a turn of the conversation
            if latency["total_ms"] is not None and status in ("completed", "incomplete"):
                self.last_total_ms = latency["total_ms"]
            self.parts.telemetry.record_response(
                "completed" if status == "incomplete" else status, latency, text_only=not audio and not reply.voice_turn,
                voice_turn=reply.voice_turn,
            )
        if self._reply is reply:
            self._reply = None
            self._reply_task = None

    async def _interrupt(self, reason: str, *, started: SpeechStarted | None = None) -> None:
        """Barge-in / response.cancel: stop the reply at once, then tell the client."""
        reply, task = self._reply, self._reply_task
        if reply is not None:
            reply.cancel_reason = reason
            reply.stop()  # engine + TTS cancelled before anything is sent
        self._playback_end = 0.0
        if started is not None:
            self._send_speech_started(started)
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _cancel_response(self, event: p.ResponseCancel) -> None:
        side = self._side_replies.get(event.response_id or "")
        if side is not None:
            side.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await side
            return
        if self._reply is None or (event.response_id and event.response_id != self._reply.id):
            raise p.ProtocolError("response_not_found", "no such reply in progress", param="response_id")
        await self._interrupt("client_cancelled")

    async def _truncate(self, event: p.ItemTruncate) -> None:
        reply = next((r for r in self._recent if r.item_id == event.item_id), None)
        message = next((m for m in self.messages if m.item_id == event.item_id), None)
        if reply is None and (message is None or message.role != "assistant"):
            raise p.ProtocolError("item_not_found", f"no assistant item {event.item_id!r} to truncate", param="item_id")
        if event.content_index != 0:
            raise p.ProtocolError("invalid_event", "content_index must be 0", param="content_index")
        if reply is None or not reply.output_audio:
            raise p.ProtocolError("item_not_found", "only a recent spoken reply can be truncated", param="item_id")
        if event.audio_end_ms < 0 or event.audio_end_ms > reply.audio_ms() + 50:
            raise p.ProtocolError(
                "invalid_audio_end_ms",
                f"audio_end_ms {event.audio_end_ms} is outside the {reply.audio_ms():.0f} ms of audio sent",
                param="audio_end_ms",
            )
        heard = reply.heard_text(event.audio_end_ms)
        if message is not None:
            await self.parts.history.set_text(self.id, message.item_id, heard)
            index = self.messages.index(message)
            self.messages[index] = StoredMessage(message.item_id, message.role, heard, message.spoken)
        elif heard:
            await self._remember(StoredMessage(reply.item_id, "assistant", heard, spoken=True))
        self._send(
            p.server_event(
                "conversation.item.truncated",
                item_id=event.item_id,
                content_index=0,
                audio_end_ms=event.audio_end_ms,
                transcript=heard,
            )
        )

    # ------------------------------------------------------------------ output helpers

    def _send(self, event: dict[str, Any], on_sent: Callable[[], None] | None = None) -> None:
        self.outbox.event(event, on_sent)

    def _error(self, error: p.ProtocolError) -> None:
        self.parts.telemetry.errors.labels(code=error.code).inc()
        self._send(p.error_event(error.code, error.message, param=error.param, event_id=error.event_id))

    def _spawn(self, coro: Awaitable[None]) -> None:
        task = asyncio.create_task(coro)  # type: ignore[arg-type]
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
