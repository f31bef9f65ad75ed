"""Client events as the session's handlers receive them: typed, already validated
(``client_parsing`` turns JSON into them)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from app.web.realtime.session_config import SessionPatch

ROOT = "root"  # previous_item_id that inserts at the start of the conversation


@dataclass(frozen=True)
class SessionUpdate:
    session: SessionPatch
    event_id: str | None = None


@dataclass(frozen=True)
class AudioAppend:
    pcm16: bytes  # at the session's declared input rate
    event_id: str | None = None


@dataclass(frozen=True)
class AudioCommit:
    event_id: str | None = None


@dataclass(frozen=True)
class AudioClear:
    event_id: str | None = None


@dataclass(frozen=True)
class ItemCreate:
    """A message: ``text``, or recorded user ``audio`` (PCM16 at the session's input rate) to transcribe.
    ``after``: None appends, ``ROOT`` inserts first, an item id inserts after that item."""

    role: Literal["user", "assistant", "system"]
    text: str
    item_id: str
    event_id: str | None = None
    audio: bytes = b""
    after: str | None = None


@dataclass(frozen=True)
class ItemRetrieve:
    item_id: str
    event_id: str | None = None


@dataclass(frozen=True)
class ItemDelete:
    item_id: str
    event_id: str | None = None


@dataclass(frozen=True)
class ItemTruncate:
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


@dataclass(frozen=True)
class ResponseCancel:
    response_id: str | None = None
    event_id: str | None = None


ClientEvent = (
    SessionUpdate | AudioAppend | AudioCommit | AudioClear | ItemCreate | ItemRetrieve | ItemDelete | ItemTruncate
    | ResponseCreate | ResponseCancel
)
