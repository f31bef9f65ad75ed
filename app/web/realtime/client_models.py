"""The strict pydantic shapes of the client events' JSON (wrong types are errors, unknown fields are
ignored); ``client_parsing`` validates against them and builds the typed events."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, StrictInt, StrictStr

from app.web.realtime.session_config import SessionPatch, Strict

MAX_APPEND_BYTES = 15 * 1024**2  # PCM16 in one append (OpenAI's limit)
MAX_ID_CHARS = 64


class SessionUpdateWire(Strict):
    session: SessionPatch


class AppendWire(Strict):
    audio: StrictStr = Field(max_length=(MAX_APPEND_BYTES + 2) // 3 * 4)


class ContentWire(Strict):
    type: StrictStr
    text: StrictStr | None = None
    transcript: StrictStr | None = None
    audio: StrictStr | None = None  # input_audio: base64 PCM16 at the session's input rate


class ItemWire(Strict):
    id: StrictStr | None = Field(None, max_length=MAX_ID_CHARS)
    type: StrictStr = "message"
    role: StrictStr = "user"
    content: list[ContentWire] = []
    call_id: StrictStr | None = Field(None, min_length=1, max_length=MAX_ID_CHARS)  # function_call(_output)
    name: StrictStr | None = Field(None, max_length=MAX_ID_CHARS)  # function_call
    arguments: StrictStr | None = None  # function_call: a JSON object
    output: StrictStr | None = None  # function_call_output


class ItemCreateWire(Strict):
    item: ItemWire
    previous_item_id: StrictStr | None = None


class ItemIdWire(Strict):
    item_id: StrictStr


class TruncateWire(Strict):
    item_id: StrictStr
    content_index: StrictInt = 0
    audio_end_ms: StrictInt


class ResponseParamsWire(Strict):
    conversation: StrictStr | None = None
    metadata: dict[StrictStr, StrictStr] | None = None
    input: list[ItemWire] | None = None
    output_modalities: list[StrictStr] | None = None
    modalities: list[StrictStr] | None = None
    instructions: StrictStr | None = None
    max_output_tokens: StrictInt | Literal["inf"] | None = None
    max_response_output_tokens: StrictInt | Literal["inf"] | None = None
    tools: list[dict[str, Any]] | None = None
    tool_choice: StrictStr | dict[str, Any] | None = None


class ResponseCreateWire(Strict):
    response: ResponseParamsWire | None = None


class ResponseCancelWire(Strict):
    response_id: StrictStr | None = None
