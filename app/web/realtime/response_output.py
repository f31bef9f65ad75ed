"""The output items of one response: its assistant message and its function calls, each with its
``output_index``, its ``response.output_item.*`` events and, in the conversation, its entry and
``conversation.item.*`` events. A response that may call tools opens its message only when text
comes, so a reply that is only calls has only ``function_call`` items, as the Realtime API has it.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

from app.engine.tool_calls import ToolCall
from app.web.realtime import server_events as ev
from app.web.realtime.conversation import Entry
from app.web.realtime.wire import new_id
from app.web.reply import Reply

if TYPE_CHECKING:
    from app.web.realtime.session import Session


class ResponseOutput:
    def __init__(self, session: Session, reply: Reply):
        self.session = session
        self.reply = reply
        self.content: ev.ContentEvents | None = None  # the message's content events, once it is open
        self.message_index = -1
        self.message_done = False
        self.items: list[ev.Item] = []  # done items, in output order

    @property
    def next_index(self) -> int:
        return len(self.items) + (self.content is not None and not self.message_done)

    def open_message(self) -> ev.ContentEvents:
        """Open the assistant message (once): ``conversation.item.added``, ``output_item.added``, ``part.added``."""
        if self.content is not None:
            return self.content
        reply, session = self.reply, self.session
        self.message_index = len(self.items)
        self.content = ev.ContentEvents(reply.id, reply.item_id, reply.output_audio, self.message_index)
        item = ev.message_item(reply.item_id, "assistant", text="", audio=reply.output_audio, status="in_progress")
        if reply.in_conversation:
            entry = Entry(reply.item_id, "assistant", "", reply.output_audio, status="in_progress")
            entry.ready.set()
            session.send(ev.item_added(item, session.conversation.insert(entry)))
        session.send(ev.output_item_added(reply.id, item, self.message_index))
        session.send(self.content.part_added())
        return self.content

    async def send_call(self, call: ToolCall) -> None:
        """A call the model made: its item, its arguments (whole: they were checked before this), stored."""
        reply, session = self.reply, self.session
        index, item_id = self.next_index, new_id("item")
        entry = Entry(item_id, "assistant", call.arguments, False, kind="function_call", call_id=call.call_id, name=call.name)
        entry.ready.set()
        previous = session.conversation.insert(entry) if reply.in_conversation else None
        opened = ev.function_call_item(item_id, call.call_id, call.name, "", "in_progress")
        if reply.in_conversation:
            session.send(ev.item_added(opened, previous))
        session.send(ev.output_item_added(reply.id, opened, index))
        session.send(ev.function_call_arguments_delta(reply.id, item_id, index, call.call_id, call.arguments))
        session.send(ev.function_call_arguments_done(reply.id, item_id, index, call.call_id, call.name, call.arguments))
        item = entry.item()
        if reply.in_conversation:
            await session.conversation.store(entry)
        session.send(ev.output_item_done(reply.id, item, index))
        if reply.in_conversation:
            session.send(ev.item_done(item, previous))
        self.items.append(item)

    async def conclude_message(self, item: ev.Item, text: str) -> None:
        """``output_item.done``; in the conversation, the message stored and ``item.done``, or where it has no words
        ``item.done`` and ``item.deleted`` (a resume would not replay it)."""
        reply, session = self.reply, self.session
        self.items.insert(self.message_index, item)
        self.message_done = True
        if not reply.in_conversation:
            session.send(ev.output_item_done(reply.id, item, self.message_index))
            return
        entry = session.conversation.find(reply.item_id)
        previous = session.conversation.previous_id(entry) if entry is not None else None
        if entry is not None:
            entry.text, entry.status = text, item["status"]
            if text:
                with contextlib.suppress(Exception):  # a failed write must not leave the reply hanging
                    await session.conversation.store(entry)
            else:
                session.conversation.drop(entry)
        session.send(ev.output_item_done(reply.id, item, self.message_index))
        session.send(ev.item_done(item, previous))
        if entry is not None and not text:  # no word of it reached the user: the conversation does not keep it
            session.send(ev.item_deleted(reply.item_id))
