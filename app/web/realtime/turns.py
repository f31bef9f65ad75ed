"""Voice turns: an utterance from the VAD (or a manual commit) to its transcript and its reply.

A turn may start speculatively in the end-of-turn pause (ASR and the reply run ahead) and is thrown
away if the user goes on talking; it is sent only once committed. Speech that starts while the
assistant talks interrupts it (barge-in). ASR and the LLM run without any lock held; only the short
bookkeeping after them takes the session's lock.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from app.cpu_share import engine_work
from app.vad import SpeechPaused, SpeechStarted, SpeechStopped
from app.web.realtime import server_events as ev
from app.web.realtime.conversation import Entry
from app.web.realtime.end_of_turn import SemanticEndOfTurn
from app.web.realtime.prefill_ahead import PrefillAhead
from app.web.realtime.state import SessionState
from app.web.realtime.wire import ProtocolError, new_id
from app.web.reply import Reply
from app.web.timing import Timing

if TYPE_CHECKING:
    from app.web.realtime.session import Session

log = logging.getLogger(__name__)
PUNCTUATION = ".,;:!?\"'()"


def confirmed_words(previous: str, current: str) -> list[str]:
    """The words two successive partial transcripts agree on, from the start: the stable part."""
    words: list[str] = []
    for before, now in zip(previous.split(), current.split()):
        if before.strip(PUNCTUATION).lower() != now.strip(PUNCTUATION).lower():
            break
        words.append(now)
    return words


@dataclass(eq=False)
class VoiceTurn:
    """A user utterance on its way to a reply; speculative until ``committed`` is set."""

    item_id: str
    audio: np.ndarray
    timing: Timing
    respond: bool
    committed: asyncio.Event = field(default_factory=asyncio.Event)
    entry: Entry | None = None
    task: asyncio.Task | None = None
    reply: Reply | None = None


class Turns:
    """The session's speculative turn, its committed turns still in ASR, and the live partial transcript."""

    def __init__(self, session: Session):
        self.session = session
        self.speculative: VoiceTurn | None = None
        self.committed: list[VoiceTurn] = []
        self.speech_item: str | None = None  # the user item the current speech will become
        self.end_of_turn = SemanticEndOfTurn(session)
        self.prefill_ahead = PrefillAhead(session)
        self._partial_busy = False
        self._partial_last = ""  # the latest partial transcript of the current speech
        self._partial_sent = 0  # how many of its words were sent as deltas

    # ------------------------------------------------------------------ VAD events

    async def speech_started(self, event: SpeechStarted) -> None:
        """The user talks: later turns answer everything at the end; a talking assistant is interrupted."""
        session = self.session
        self.speech_item, self._partial_last, self._partial_sent = new_id("item"), "", 0
        self.prefill_ahead.new_speech()
        for turn in self.committed:
            turn.respond = False
            if turn.reply is not None:
                turn.reply.stop()
                turn.reply = None
        vad = session.config.turn_detection
        busy = session.responses.active is not None or session.responses.playing()
        session.state.move(SessionState.LISTENING)
        started = ev.speech_started(int(event.start_s * 1000), self.speech_item)
        if busy and vad is not None and vad.interrupt_response:
            await session.responses.interrupt("turn_detected", notice=started)
        else:
            session.send(started)

    def speech_paused(self, event: SpeechPaused) -> None:
        """A pause that may end the turn: start ASR and the reply now, kept only if the user stays silent."""
        self.prefill_ahead.stop()
        vad = self.session.config.turn_detection
        idle = self.session.responses.active is None
        if self.session.settings.speculative_asr and vad is not None and vad.create_response and idle:
            self.discard_speculative()
            self.speculative = self._begin(event.audio, Timing(speculative=True), respond=True)
        elif self.end_of_turn.active:
            self.end_of_turn.without_words()

    def discard_speculative(self) -> None:
        """The user talked on after a pause: whatever was started speculatively is thrown away."""
        turn, self.speculative = self.speculative, None
        if turn is not None:
            self._stop(turn)

    def speech_stopped(self, event: SpeechStopped, speech_end: float) -> None:
        session = self.session
        item_id = self.speech_item or new_id("item")
        self.speech_item = None
        self.prefill_ahead.stop()
        vad = session.config.turn_detection
        respond = bool(vad and vad.create_response) and not event.cut
        session.send(ev.speech_stopped(int(event.end_s * 1000), item_id))
        if event.cut:
            limit = session.settings.max_utterance_s
            session.error(ProtocolError("utterance_too_long", f"speech over {limit:g} s is cut into pieces; each is transcribed"))
        turn, self.speculative = self.speculative, None
        if turn is not None and respond:
            turn.item_id = item_id  # the speculative turn is this utterance: adopt it
        else:
            if turn is not None:
                self._stop(turn)
            turn = self._begin(event.audio, Timing(), respond=respond, item_id=item_id)
        turn.timing.speech_end = speech_end
        turn.timing.turn_end = time.perf_counter()
        self._commit(turn)

    def speech_cleared(self) -> None:
        self.prefill_ahead.stop()
        self.discard_speculative()
        self.speech_item = None
        self.session.settle()

    def commit_manual(self, audio: np.ndarray) -> None:
        """``input_audio_buffer.commit`` with turn detection off: the held audio is the turn (no reply)."""
        now = time.perf_counter()
        self._commit(self._begin(audio, Timing(speech_end=now, turn_end=now), respond=False))

    def partial_audio(self, audio: np.ndarray) -> None:
        """The speech so far, for a partial transcript: none while one is in ASR, or while the LLM engine on these
        cores serves voice replies (``app.cpu_share.EngineWork``)."""
        if self._partial_busy or self.speech_item is None or engine_work.replies:
            return
        self._partial_busy = True
        self.session.spawn(self._partial(audio, self.speech_item))

    async def _partial(self, audio: np.ndarray, item_id: str) -> None:
        """A partial transcript; only the words two partials agree on are sent, as increments."""
        try:
            transcript = await self.session.transcribe(audio, final=False)
        except Exception:
            log.exception("partial transcript failed")
            return
        finally:
            self._partial_busy = False
        if transcript is None or self.speech_item != item_id or not transcript.text.strip():
            return
        stable = confirmed_words(self._partial_last, transcript.text.strip())
        self._partial_last = transcript.text.strip()
        delta = ""
        if len(stable) > self._partial_sent:
            delta = (" " if self._partial_sent else "") + " ".join(stable[self._partial_sent :])
            self._partial_sent = len(stable)
        self.session.send(ev.transcription_delta(item_id, delta, self._partial_last))
        self.prefill_ahead.words(self._partial_last)

    # ------------------------------------------------------------------ turns

    def _begin(self, audio: np.ndarray, timing: Timing, *, respond: bool, item_id: str | None = None) -> VoiceTurn:
        """Start ASR (and, if ``respond``, the reply) on an utterance; sent once ``committed`` is set."""
        turn = VoiceTurn(item_id or new_id("item"), audio, timing, respond)
        turn.task = asyncio.create_task(self._run(turn), name=f"turn-{turn.item_id}")
        return turn

    def _commit(self, turn: VoiceTurn) -> None:
        session = self.session
        turn.entry = Entry(turn.item_id, "user", None, spoken=True, status="in_progress")
        previous = session.conversation.insert(turn.entry)
        self.committed.append(turn)
        session.send(ev.audio_committed(turn.item_id, previous))
        session.send(ev.item_added(turn.entry.item(), previous))
        turn.committed.set()
        if session.state.is_(SessionState.IDLE, SessionState.LISTENING):
            session.state.move(SessionState.THINKING)

    def _stop(self, turn: VoiceTurn) -> None:
        if turn.reply is not None and not self.session.responses.is_active(turn.reply):
            turn.reply.stop()
        if turn.task is not None and not turn.task.done():
            turn.task.cancel()
        self._over(turn, dropped=True)

    def _over(self, turn: VoiceTurn, *, dropped: bool = False) -> None:
        if turn in self.committed:
            self.committed.remove(turn)
        if dropped and turn.entry is not None:
            self.session.conversation.drop(turn.entry)

    async def _run(self, turn: VoiceTurn) -> None:
        """ASR (possibly during the pause), a reply produced ahead, then both sent once committed."""
        session = self.session
        try:
            transcript = await session.transcribe(turn.audio)
        except asyncio.CancelledError:
            raise
        except Exception as failure:
            log.exception("ASR failed in session %s", session.id[:8])
            await turn.committed.wait()
            session.error(ProtocolError("stage_failed", f"speech recognition failed: {failure}"))
            self._over(turn, dropped=True)
            session.settle()
            return
        turn.timing.transcript = time.perf_counter()
        text = transcript.text.strip() if transcript is not None else ""
        judged = turn.timing.speculative and self.end_of_turn.active
        if text and turn.respond and session.responses.active is None:
            turn.reply = session.responses.prepare(session.responses.prompt(None, None, text), voice=True, timing=turn.timing,
                                                   end_probs=self.end_of_turn.end_ids() if judged else ())  # fmt: skip
            turn.reply.start()  # produced ahead; sent only once the turn is committed
        if judged:
            await self.end_of_turn.judge(turn, text)
        await turn.committed.wait()
        turn.timing.transcript = max(turn.timing.transcript, turn.timing.turn_end or 0)
        async with session.lock:
            session.send_transcript(turn.item_id, transcript)
            try:
                if not text:
                    raise ProtocolError("empty_input", "no words were recognised in the speech")
                assert turn.entry is not None
                await session.conversation.complete(turn.entry, text)
            except ProtocolError as error:
                session.error(error)
                self._over(turn, dropped=True)
                if turn.reply is not None:
                    turn.reply.stop()
                session.settle()
                return
            self._over(turn)
            if turn.reply is not None and turn.respond and session.responses.active is None:
                session.responses.launch(turn.reply)
            elif turn.reply is not None:
                turn.reply.stop()
            session.settle()

    def close(self) -> None:
        self.prefill_ahead.stop()
        self.discard_speculative()
        for turn in list(self.committed):
            self._stop(turn)
