"""Conversation items and history: ``conversation.item.create|retrieve|delete|truncate``.

The conversation is an ordered list of entries; each knows the item before it, so ``.added`` and
``.done`` of one item carry the same ``previous_item_id``. A user turn enters when it is committed,
with no text until ASR gives it its words; a response waits for those (``settled``), but no lock is
held while ASR runs. Every entry is stored (SQLite) once it has its text; an entry with no text
(deleted, or truncated to nothing) is no part of the conversation, also after a resume.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from app.audio.pcm import pcm16_to_float32
from app.audio.resample import resample
from app.web.history import HistoryQuotaExceeded, StoredMessage
from app.web.realtime import server_events as ev
from app.web.realtime.client_events import ROOT, InputMessage, ItemCreate, ItemDelete, ItemRetrieve, ItemTruncate
from app.web.realtime.wire import INPUT_RATE, ProtocolError

if TYPE_CHECKING:
    from app.web.realtime.session import Session

HISTORY_LIMIT = 1000  # messages loaded when a session resumes


CALL_KINDS = ("function_call", "function_call_output")


@dataclass(eq=False)
class Entry:
    """One item of the conversation; ``text`` is None while its audio is being transcribed. A
    ``function_call`` holds its arguments in ``text``, a ``function_call_output`` its output."""

    item_id: str
    role: str
    text: str | None
    spoken: bool
    status: ev.ItemStatus = "completed"
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    kind: str = "message"  # or one of CALL_KINDS
    call_id: str = ""
    name: str = ""

    def item(self) -> ev.Item:
        if self.kind == "function_call":
            return ev.function_call_item(self.item_id, self.call_id, self.name, self.text or "", self.status)
        if self.kind == "function_call_output":
            return ev.function_call_output_item(self.item_id, self.call_id, self.text or "")
        return ev.message_item(self.item_id, self.role, text=self.text, audio=self.spoken, status=self.status)

    def stored(self) -> StoredMessage:
        """Messages as they are; calls and outputs as JSON under their kind (the history has one text column)."""
        if self.kind == "message":
            return StoredMessage(self.item_id, self.role, self.text or "", self.spoken)
        fields = {"call_id": self.call_id, "name": self.name, "text": self.text or ""}
        return StoredMessage(self.item_id, self.kind, json.dumps(fields), False)

    @classmethod
    def from_stored(cls, message: StoredMessage) -> Entry:
        if message.role not in CALL_KINDS:
            entry = cls(message.item_id, message.role, message.text, message.spoken)
        else:
            fields = json.loads(message.text)
            role = "assistant" if message.role == "function_call" else "tool"
            entry = cls(message.item_id, role, fields["text"], False, kind=message.role, call_id=fields["call_id"],
                        name=fields["name"])  # fmt: skip
        entry.ready.set()
        return entry


Context = list[Entry | InputMessage]  # a response's own context (``response.input``)


class Conversation:
    """The items of one session, in order, and the client events that edit them."""

    def __init__(self, session: Session):
        self.session = session
        self.entries: list[Entry] = []

    # ------------------------------------------------------------------ the list

    async def load(self) -> None:
        """A resumed session: the stored messages, replayed to the client as done items."""
        stored = await self.session.parts.history.load(self.session.id, HISTORY_LIMIT)
        self.entries += [Entry.from_stored(message) for message in stored if message.text]
        for index, entry in enumerate(self.entries):
            self.session.send(ev.item_done(entry.item(), self.entries[index - 1].item_id if index else None))

    def find(self, item_id: str) -> Entry | None:
        return next((e for e in self.entries if e.item_id == item_id), None)

    def previous_id(self, entry: Entry) -> str | None:
        index = self.entries.index(entry)
        return self.entries[index - 1].item_id if index else None

    @property
    def user_turns(self) -> int:
        return sum(1 for e in self.entries if e.role == "user")

    def insert(self, entry: Entry, after: str | None = None) -> str | None:
        """Append (``after`` None), insert first (``ROOT``) or after an item; returns the previous item's id."""
        if self.find(entry.item_id) is not None:
            raise ProtocolError("invalid_event", f"item id {entry.item_id!r} already exists", param="item.id")
        if after is None:
            self.entries.append(entry)
        elif after == ROOT:
            self.entries.insert(0, entry)
        else:
            anchor = self.find(after)
            if anchor is None:
                raise ProtocolError("item_not_found", f"no item {after!r} to insert after", param="previous_item_id")
            self.entries.insert(self.entries.index(anchor) + 1, entry)
        return self.previous_id(entry)

    def drop(self, entry: Entry) -> None:
        """An item with no words (an empty or failed transcription, a reply none of which was heard) leaves the
        conversation."""
        if entry in self.entries:
            self.entries.remove(entry)
        entry.ready.set()

    async def settled(self) -> None:
        """Wait until every item has its text (ASR of committed turns and audio items)."""
        while pending := [e for e in self.entries if not e.ready.is_set()]:
            await pending[0].ready.wait()

    def resolve(self, refs: tuple[str | InputMessage, ...]) -> Context:
        """``response.input``: stored items by id, or inline messages."""
        context: Context = []
        for index, ref in enumerate(refs):
            entry = ref if isinstance(ref, InputMessage) else self.find(ref)
            if entry is None:
                raise ProtocolError("item_not_found", f"no item {ref!r} in this conversation", param=f"response.input.{index}.id")
            context.append(entry)
        return context

    def context(self) -> list[dict[str, Any]]:
        """The conversation as chat-completions messages (after the system prompt): calls join the assistant
        message before them, outputs are ``tool`` messages."""
        messages: list[dict[str, Any]] = []
        for e in self.entries:
            if e.kind == "function_call":
                call = {"id": e.call_id, "type": "function", "function": {"name": e.name, "arguments": e.text or "{}"}}
                if not messages or messages[-1]["role"] != "assistant":
                    messages.append({"role": "assistant", "content": ""})
                messages[-1].setdefault("tool_calls", []).append(call)
            elif e.kind == "function_call_output":
                messages.append({"role": "tool", "tool_call_id": e.call_id, "content": e.text or ""})
            elif e.text:
                messages.append({"role": e.role, "content": e.text})
        return messages

    def has_call(self, call_id: str) -> bool:
        return any(e.kind == "function_call" and e.call_id == call_id for e in self.entries)

    async def store(self, entry: Entry) -> None:
        """Store first, then tell: what the client is told is done is on disk; in its place between its neighbours."""
        index = self.entries.index(entry) if entry in self.entries else len(self.entries)
        previous = self.entries[index - 1].item_id if index else None
        following = self.entries[index + 1].item_id if index + 1 < len(self.entries) else None
        try:
            await self.session.parts.history.add(self.session.id, entry.stored(), previous, following)
        except HistoryQuotaExceeded as error:
            raise ProtocolError(error.code, str(error)) from None

    async def complete(self, entry: Entry, text: str) -> None:
        """A user item got its words: stored, then ``conversation.item.done``."""
        entry.text, entry.status = text, "completed"
        try:
            await self.store(entry)
        finally:
            entry.ready.set()
        if entry in self.entries:
            self.session.send(ev.item_done(entry.item(), self.previous_id(entry)))

    # ------------------------------------------------------------------ client events

    async def create(self, event: ItemCreate) -> None:
        """A message item: typed text of any role is stored at once; user audio is transcribed off the lock."""
        if event.audio:
            await self._create_audio(event)
            return
        if event.kind == "function_call_output" and not self.has_call(event.call_id):
            raise ProtocolError("item_not_found", f"no function_call with call_id {event.call_id!r} in this conversation",
                                param="item.call_id")  # fmt: skip
        entry = Entry(event.item_id, event.role, event.text, spoken=False, kind=event.kind, call_id=event.call_id,
                      name=event.name)  # fmt: skip
        await self.add(entry, event.after)

    async def add(self, entry: Entry, after: str | None = None) -> None:
        """An item with its words: in its place, stored (or out again when the history refuses it), then
        ``conversation.item.added`` and ``.done``."""
        previous = self.insert(entry, after)
        entry.ready.set()
        try:
            await self.store(entry)
        except ProtocolError:
            self.entries.remove(entry)
            raise
        self.session.send(ev.item_added(entry.item(), previous))
        self.session.send(ev.item_done(entry.item(), previous))

    async def _create_audio(self, event: ItemCreate) -> None:
        session = self.session
        audio = resample(pcm16_to_float32(event.audio), session.config.input_rate, INPUT_RATE)
        limit = session.settings.max_utterance_s
        if len(audio) > limit * INPUT_RATE:
            raise ProtocolError("utterance_too_long", f"audio items are limited to {limit:g} s", param="item.content")
        if not session.limits.audio.allow(len(audio) / INPUT_RATE):
            raise ProtocolError("audio_rate_exceeded", f"over {session.settings.max_audio_s_per_min:g} s of audio per minute")
        entry = Entry(event.item_id, "user", None, spoken=True, status="in_progress")
        previous = self.insert(entry, event.after)
        session.send(ev.item_added(entry.item(), previous))
        session.spawn(self._transcribe_item(entry, audio, event.event_id))

    async def _transcribe_item(self, entry: Entry, audio: object, event_id: str | None) -> None:
        session = self.session
        try:
            transcript = await session.transcribe(audio)  # type: ignore[arg-type]
        except Exception as failure:
            self.drop(entry)
            session.error(ProtocolError("stage_failed", f"speech recognition failed: {failure}", event_id=event_id))
            return
        text = transcript.text.strip() if transcript else ""
        async with session.lock:
            session.send_transcript(entry.item_id, transcript)
            if not text:
                self.drop(entry)
                session.error(ProtocolError("empty_input", "no words were recognised in the audio", param="item.content",
                                            event_id=event_id))  # fmt: skip
                return
            try:
                await self.complete(entry, text)
            except ProtocolError as error:
                self.drop(entry)
                error.event_id = event_id
                session.error(error)

    async def retrieve(self, event: ItemRetrieve) -> None:
        entry = self._existing(event.item_id)
        self.session.send(ev.item_retrieved(entry.item()))

    async def delete(self, event: ItemDelete) -> None:
        """Removed from the conversation the model sees; the stored text is emptied, so a resume skips it."""
        entry = self._existing(event.item_id)
        if not entry.ready.is_set():
            raise ProtocolError("item_in_progress", f"item {event.item_id!r} is still being transcribed", param="item_id")
        if self.session.responses.owns(event.item_id):
            raise ProtocolError("item_in_progress", f"item {event.item_id!r} is the reply in progress", param="item_id")
        await self.session.parts.history.set_text(self.session.id, entry.item_id, "")
        self.entries.remove(entry)
        self.session.send(ev.item_deleted(event.item_id))

    def _existing(self, item_id: str) -> Entry:
        entry = self.find(item_id)
        if entry is None:
            raise ProtocolError("item_not_found", f"no item {item_id!r} in this conversation", param="item_id")
        return entry

    async def truncate(self, event: ItemTruncate) -> None:
        """The client played ``audio_end_ms`` of a spoken reply: keep only the words heard."""
        reply = self.session.responses.recent(event.item_id)
        entry = self.find(event.item_id)
        if reply is None and (entry is None or entry.role != "assistant"):
            raise ProtocolError("item_not_found", f"no assistant item {event.item_id!r} to truncate", param="item_id")
        if event.content_index != 0:
            raise ProtocolError("invalid_event", "content_index must be 0", param="content_index")
        if reply is None or not reply.output_audio:
            raise ProtocolError("item_not_found", "only a recent spoken reply can be truncated", param="item_id")
        if event.audio_end_ms < 0 or event.audio_end_ms > reply.audio_ms() + 50:
            raise ProtocolError("invalid_audio_end_ms", f"audio_end_ms {event.audio_end_ms} is outside the "
                                f"{reply.audio_ms():.0f} ms of audio sent", param="audio_end_ms")  # fmt: skip
        heard = reply.heard_text(event.audio_end_ms)
        if entry is not None:
            await self.session.parts.history.set_text(self.session.id, entry.item_id, heard)
            entry.text = heard
        elif heard:  # it left the conversation with no words (deleted), yet the client heard some: back, and told
            entry = Entry(reply.item_id, "assistant", heard, spoken=True, status="incomplete")
            await self.add(entry)
        self.session.send(ev.item_truncated(event.item_id, event.audio_end_ms, heard))
        if entry is not None and not heard and not self.session.responses.owns(entry.item_id):
            # none of its words was heard: its stored text is empty, so it leaves the conversation as a resume has it
            self.drop(entry)
            self.session.send(ev.item_deleted(entry.item_id))

