"""Client events: every one validated by a strict pydantic model, then turned into a typed event
(``client_events``). Parsing never raises anything but :class:`ProtocolError`, which carries the
``error.code`` the client receives and, in ``param``, the path of the offending field as the client
wrote it (never a name of pydantic's).
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any

from pydantic import ValidationError

from app.web.realtime.client_events import (
    ROOT,
    AudioAppend,
    AudioClear,
    AudioCommit,
    ClientEvent,
    InputMessage,
    ItemCreate,
    ItemDelete,
    ItemRetrieve,
    ItemTruncate,
    ResponseCancel,
    ResponseCreate,
    SessionUpdate,
)
from app.web.realtime.client_models import (
    AppendWire,
    ItemCreateWire,
    ItemIdWire,
    ItemWire,
    ResponseCancelWire,
    ResponseCreateWire,
    SessionUpdateWire,
    TruncateWire,
)
from app.web.realtime.function_calls import checked_tool_choice, checked_tools
from app.web.realtime.session_config import Strict, modalities_audio
from app.web.realtime.wire import ProtocolError, new_id

MAX_METADATA_ENTRIES = 16  # OpenAI's limits on response metadata


def _client_path(data: Any, loc: tuple[int | str, ...]) -> str | None:
    """The part of a pydantic error location that names the client's fields: union branch names
    (``int``, ``FormatPatch``...) are pydantic's, not the client's, and are left out."""
    parts: list[str] = []
    for position, part in enumerate(loc):
        last = position == len(loc) - 1
        if isinstance(data, dict) and isinstance(part, str):
            if part in data:
                data = data[part]
            elif not last:
                continue  # a union branch
            parts.append(part)
        elif isinstance(data, list) and isinstance(part, int) and 0 <= part < len(data):
            data = data[part]
            parts.append(str(part))
        else:
            break
    return ".".join(parts) or None


def _validated(model: type[Strict], data: dict[str, Any], event_id: str | None) -> Any:
    try:
        return model.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        param = _client_path(data, first["loc"])
        problem = "is required" if first["type"] == "missing" else f"is invalid ({first['msg']})"
        raise ProtocolError("invalid_event", f"{param} {problem}", param=param, event_id=event_id) from None


def _check_length(text: str, limit: int, param: str, event_id: str | None) -> None:
    if len(text) > limit:
        raise ProtocolError("text_too_long", f"text is {len(text)} characters; the limit is {limit}", param=param,
                            event_id=event_id)


def parse_client_event(data: dict[str, Any], *, max_text_chars: int) -> ClientEvent:
    """A decoded JSON object -> a typed client event, or :class:`ProtocolError`."""
    event_id = data.get("event_id") if isinstance(data.get("event_id"), str) else None
    kind = data.get("type")
    if not isinstance(kind, str):
        raise ProtocolError("unknown_event", "event has no string 'type'", param="type", event_id=event_id)
    parse = _PARSERS.get(kind)
    if parse is None:
        raise ProtocolError("unknown_event", f"unknown event type {kind[:64]!r}", param="type", event_id=event_id)
    try:
        return parse(data, event_id, max_text_chars)
    except ProtocolError as error:
        error.event_id = event_id
        raise


def _session_update(data: dict[str, Any], event_id: str | None, max_text_chars: int) -> SessionUpdate:
    patch = _validated(SessionUpdateWire, data, event_id).session
    if patch.instructions is not None:
        _check_length(patch.instructions, max_text_chars, "session.instructions", event_id)
    return SessionUpdate(patch, event_id)


def _append(data: dict[str, Any], event_id: str | None, _: int) -> AudioAppend:
    return AudioAppend(base64_pcm16(_validated(AppendWire, data, event_id).audio, "audio"), event_id)


def base64_pcm16(encoded: str | None, param: str) -> bytes:
    if encoded is None:
        raise ProtocolError("invalid_event", "audio is required", param=param)
    try:
        pcm = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError):
        raise ProtocolError("invalid_audio", "audio is not valid base64", param=param) from None
    if len(pcm) % 2:
        raise ProtocolError("invalid_audio", "PCM16 audio must have an even number of bytes", param=param)
    return pcm


def _item_create(data: dict[str, Any], event_id: str | None, max_text_chars: int) -> ItemCreate:
    wire = _validated(ItemCreateWire, data, event_id)
    item = wire.item
    if item.type in ("function_call", "function_call_output"):
        return _call_item(item, wire.previous_item_id, event_id, max_text_chars)
    if item.type != "message":
        raise ProtocolError("invalid_event", "item.type must be 'message', 'function_call' or 'function_call_output'",
                            param="item.type")  # fmt: skip
    if item.role not in ("user", "assistant", "system"):
        raise ProtocolError("invalid_event", "item.role must be 'user', 'assistant' or 'system'", param="item.role")
    if not item.content:
        raise ProtocolError("invalid_event", "item.content is required (a list of content parts)", param="item.content")
    text_types = {"user": ("input_text", "text"), "system": ("input_text", "text"), "assistant": ("output_text", "text")}
    texts: list[str] = []
    audio: list[bytes] = []
    for index, part in enumerate(item.content):
        param = f"item.content.{index}"
        if part.type == "input_audio" and item.role == "user":
            audio.append(base64_pcm16(part.audio, f"{param}.audio"))
        elif part.type in text_types[item.role] and part.text is not None:
            texts.append(part.text)
        elif part.type == "output_audio" and item.role == "assistant" and part.transcript is not None:
            texts.append(part.transcript)
        elif part.type in text_types[item.role] or part.type == "output_audio":
            raise ProtocolError("invalid_event", f"{param}.text is required", param=f"{param}.text")
        else:
            allowed = ", ".join(text_types[item.role]) + (", input_audio" if item.role == "user" else "")
            raise ProtocolError("invalid_event", f"content type {part.type[:32]!r} is not supported for role "
                                f"{item.role}; use {allowed}", param=f"{param}.type")  # fmt: skip
    after = wire.previous_item_id
    item_id = item.id or new_id("item")
    if item_id == ROOT:
        raise ProtocolError("invalid_event", "'root' is not an item id", param="item.id")
    if audio:
        if texts:
            raise ProtocolError("invalid_event", "an item holds text or audio, not both", param="item.content")
        return ItemCreate("user", "", item_id, event_id, audio=b"".join(audio), after=after)
    text = "".join(texts).strip()
    if not text:
        raise ProtocolError("empty_input", "the message has no text", param="item.content")
    _check_length(text, max_text_chars, "item.content", event_id)
    return ItemCreate(item.role, text, item_id, event_id, after=after)  # type: ignore[arg-type]


def _call_item(item: ItemWire, after: str | None, event_id: str | None, max_text_chars: int) -> ItemCreate:
    """A ``function_call_output`` (the client ran a call) or a ``function_call`` (a history being seeded)."""
    if item.call_id is None:
        raise ProtocolError("invalid_event", f"a {item.type} item needs a call_id", param="item.call_id")
    item_id = item.id or new_id("item")
    if item.type == "function_call_output":
        if item.output is None:
            raise ProtocolError("invalid_event", "a function_call_output item needs an output (a string)", param="item.output")
        _check_length(item.output, max_text_chars, "item.output", event_id)
        return ItemCreate("tool", item.output, item_id, event_id, after=after, kind="function_call_output",
                          call_id=item.call_id)  # fmt: skip
    if not item.name:
        raise ProtocolError("invalid_event", "a function_call item needs a name", param="item.name")
    arguments = item.arguments or "{}"
    _check_length(arguments, max_text_chars, "item.arguments", event_id)
    try:
        if not isinstance(json.loads(arguments), dict):
            raise ValueError
    except ValueError:
        raise ProtocolError("invalid_event", "item.arguments must be a JSON object", param="item.arguments") from None
    return ItemCreate("assistant", arguments, item_id, event_id, after=after, kind="function_call", call_id=item.call_id,
                      name=item.name)  # fmt: skip


def _response_create(data: dict[str, Any], event_id: str | None, max_text_chars: int) -> ResponseCreate:
    params = _validated(ResponseCreateWire, data, event_id).response
    if params is None:
        return ResponseCreate(event_id=event_id)
    if params.conversation not in (None, "auto", "none"):
        raise ProtocolError("invalid_event", "response.conversation must be 'auto' or 'none'", param="response.conversation")
    tools = None if params.tools is None else checked_tools(params.tools, "response.tools")
    choice = params.tool_choice
    if choice is not None and (tools is not None or isinstance(choice, str)):  # a function named from the
        choice = checked_tool_choice(choice, tools or (), "response.tool_choice")  # session's tools: checked at start
    metadata = params.metadata
    if metadata is not None and (
        len(metadata) > MAX_METADATA_ENTRIES or any(len(k) > 64 or len(v) > 512 for k, v in metadata.items())
    ):
        raise ProtocolError("invalid_event", f"response.metadata holds at most {MAX_METADATA_ENTRIES} entries, keys "
                            "up to 64 and values up to 512 characters", param="response.metadata")  # fmt: skip
    if params.instructions is not None:
        _check_length(params.instructions, max_text_chars, "response.instructions", event_id)
    context = None if params.input is None else tuple(
        _input_item(item, f"response.input.{index}", max_text_chars, event_id) for index, item in enumerate(params.input)
    )
    modalities = params.output_modalities if params.output_modalities is not None else params.modalities
    output_audio = None if modalities is None else modalities_audio(modalities, "response.output_modalities")
    tokens = params.max_output_tokens if params.max_output_tokens is not None else params.max_response_output_tokens
    if isinstance(tokens, int) and tokens < 1:
        raise ProtocolError("invalid_event", "max_output_tokens must be at least 1", param="response.max_output_tokens")
    out_of_band = params.conversation == "none"
    if out_of_band and output_audio:
        raise ProtocolError("invalid_event", "out-of-band responses (conversation 'none') are text only",
                            param="response.output_modalities")  # fmt: skip
    return ResponseCreate(output_audio, params.instructions, tokens, event_id, out_of_band, metadata, context, tools, choice)


def _input_item(item: ItemWire, param: str, max_text_chars: int, event_id: str | None) -> str | InputMessage:
    """One entry of a response's ``input``: a reference to a stored item, or a message."""
    if item.type == "item_reference":
        if not item.id:
            raise ProtocolError("invalid_event", "an item_reference needs an id", param=f"{param}.id")
        return item.id
    if item.type != "message" or item.role not in ("user", "assistant", "system"):
        raise ProtocolError("invalid_event", "input items are item_reference or message items of role user, "
                            "assistant or system", param=param)  # fmt: skip
    parts = [part for part in item.content if part.type in ("input_text", "text", "output_text") and part.text]
    text = "".join(part.text for part in parts).strip()  # type: ignore[misc]
    if not text or len(parts) != len(item.content):
        raise ProtocolError("invalid_event", "input messages hold text only", param=f"{param}.content")
    _check_length(text, max_text_chars, f"{param}.content", event_id)
    return InputMessage(item.role, text)  # type: ignore[arg-type]


def _item_id_event(kind: type[ItemRetrieve] | type[ItemDelete]) -> Any:
    return lambda data, event_id, _: kind(_validated(ItemIdWire, data, event_id).item_id, event_id)


def _truncate(data: dict[str, Any], event_id: str | None, _: int) -> ItemTruncate:
    wire = _validated(TruncateWire, data, event_id)
    return ItemTruncate(wire.item_id, wire.content_index, wire.audio_end_ms, event_id)


_PARSERS: dict[str, Any] = {
    "session.update": _session_update,
    "input_audio_buffer.append": _append,
    "input_audio_buffer.commit": lambda data, event_id, _: AudioCommit(event_id),
    "input_audio_buffer.clear": lambda data, event_id, _: AudioClear(event_id),
    "conversation.item.create": _item_create,
    "conversation.item.retrieve": _item_id_event(ItemRetrieve),
    "conversation.item.delete": _item_id_event(ItemDelete),
    "conversation.item.truncate": _truncate,
    "response.create": _response_create,
    "response.cancel": lambda data, event_id, _: ResponseCancel(
        _validated(ResponseCancelWire, data, event_id).response_id, event_id
    ),
}
