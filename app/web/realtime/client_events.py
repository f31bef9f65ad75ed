"""Client events as the session's handlers receive them: typed, already validated
(``client_parsing`` turns JSON into them)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from app.web.realtime.session_config import SessionPatch

ROOT = "root"  # previous_item_id that inserts at the start of the conversation


@dataclass(frozen=True)
class SessionUpdate:
    """``session.update``: the fields the client sent (validated, not yet applied)."""

    session: SessionPatch
    event_id: str | None = None


@dataclass(frozen=True)
class AudioAppend:
    """``input_audio_buffer.append``."""

    pcm16: bytes  # at the session's declared input rate
    event_id: str | None = None


@dataclass(frozen=True)
class AudioCommit:
    """``input_audio_buffer.commit``: end the user turn now."""

    event_id: str | None = None


@dataclass(frozen=True)
class AudioClear:
    """``input_audio_buffer.clear``: drop the audio not yet committed."""

    event_id: str | None = None


@dataclass(frozen=True)
class ItemCreate:
    """A message: ``text``, or recorded user ``audio`` (PCM16 at the session's input rate) to transcribe.
    ``after``: None appends, ``ROOT`` inserts first, an item id inserts after that item."""

    role: Literal["user", "assistant", "system", "tool"]
    text: str  # a function_call's arguments, a function_call_output's output
    item_id: str
    event_id: str | None = None
    audio: bytes = b""
    after: str | None = None
    kind: Literal["message", "function_call", "function_call_output"] = "message"
    call_id: str = ""
    name: str = ""  # a function_call's function


@dataclass(frozen=True)
class ItemRetrieve:
    """``conversation.item.retrieve``: the server's copy of an item."""

    item_id: str
    event_id: str | None = None


class ItemDelete(ItemRetrieve):
    """``conversation.item.delete``: the item leaves the conversation."""


@dataclass(frozen=True)
class ItemTruncate:
    """``conversation.item.truncate``: the client played only ``audio_end_ms`` of a spoken reply."""

    item_id: str
    content_index: int
    audio_end_ms: int
    event_id: str | None = None


@dataclass(frozen=True)
class InputMessage:
    """A message given inline as a response's context."""

    role: Literal["user", "assistant", "system"]
    text: str


@dataclass(frozen=True)
class ResponseCreate:
    output_audio: bool | None = None  # None: the session's setting
    instructions: str | None = None
    max_output_tokens: int | Literal["inf"] | None = None
    event_id: str | None = None
    out_of_band: bool = False  # conversation "none": not stored, runs beside the conversation's reply
    metadata: dict[str, str] | None = None  # echoed in the response object
    # a context of its own instead of the conversation: ids (str) of stored items, or inline messages
    input: tuple[str | InputMessage, ...] | None = None
    tools: tuple[dict[str, Any], ...] | None = None  # None: the session's; checked (``function_calls``)
    tool_choice: str | dict[str, str] | None = None


@dataclass(frozen=True)
class ResponseCancel:
    """``response.cancel``: the conversation's reply, or an out-of-band one by its id."""

    response_id: str | None = None
    event_id: str | None = None


ClientEvent = (
    SessionUpdate | AudioAppend | AudioCommit | AudioClear | ItemCreate | ItemRetrieve | ItemDelete | ItemTruncate
    | ResponseCreate | ResponseCancel
)
