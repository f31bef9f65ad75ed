"""The wire protocol: client events parsed into typed objects, server events built as dicts.

A subset of the OpenAI Realtime API (GA names, beta field names accepted on input); docs/protocol.md
is the reference. Parsing never raises anything but :class:`ProtocolError`, which carries the
``error.code`` the client receives.
"""

from __future__ import annotations

import base64
import binascii
import json
import secrets
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, StrictInt, StrictStr, ValidationError

OUTPUT_RATES = range(8000, 48001)
INPUT_RATES = (16000, 24000)
OPENAI_PCM_RATE = 24000


class ProtocolError(Exception):
    """A client mistake: becomes an ``error`` event with ``code``; the session goes on."""

    def __init__(self, code: str, message: str, *, param: str | None = None, event_id: str | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.param = param
        self.event_id = event_id


def new_id(prefix: str) -> str:
    """Ids in OpenAI's style (``item_...``, ``resp_...``, ``event_...``)."""
    return f"{prefix}_{secrets.token_hex(10)}"


# --------------------------------------------------------------------------------------------
# Session configuration


@dataclass(frozen=True)
class TurnDetection:
    """Server VAD settings a client may tune (``session.audio.input.turn_detection``)."""

    silence_duration_ms: int
    threshold: float
    prefix_padding_ms: int
    create_response: bool = True
    interrupt_response: bool = True

    def to_wire(self) -> dict[str, Any]:
        return {
            "type": "server_vad",
            "threshold": self.threshold,
            "prefix_padding_ms": self.prefix_padding_ms,
            "silence_duration_ms": self.silence_duration_ms,
            "create_response": self.create_response,
            "interrupt_response": self.interrupt_response,
        }


@dataclass(frozen=True)
class SessionConfig:
    """What ``session.update`` can change; ``to_wire`` is the ``session`` object the client sees."""

    instructions: str
    output_audio: bool
    input_rate: int
    output_rate: int
    turn_detection: TurnDetection | None
    max_output_tokens: int
    model: str
    voice: str = "default"
    transcription: dict[str, Any] = field(default_factory=lambda: {"model": "whisper"})

    def to_wire(self, session_id: str, max_output_tokens_limit: int) -> dict[str, Any]:
        return {
            "id": session_id,
            "object": "realtime.session",
            "type": "realtime",
            "model": self.model,
            "instructions": self.instructions,
            "output_modalities": ["audio"] if self.output_audio else ["text"],
            "max_output_tokens": (
                "inf" if self.max_output_tokens >= max_output_tokens_limit else self.max_output_tokens
            ),
            "audio": {
                "input": {
                    "format": {"type": "audio/pcm", "rate": self.input_rate},
                    "turn_detection": self.turn_detection.to_wire() if self.turn_detection else None,
                    "transcription": self.transcription,
                },
                "output": {"format": {"type": "audio/pcm", "rate": self.output_rate}, "voice": self.voice},
            },
        }


def _expect(value: Any, kind: type | tuple[type, ...], param: str) -> Any:
    if isinstance(value, bool) and kind in (int, float, (int, float)):
        raise ProtocolError("invalid_event", f"{param} must be a number", param=param)
    if not isinstance(value, kind):
        names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean", int: "an integer"}
        wanted = names.get(kind, "a number") if isinstance(kind, type) else "a number"
        raise ProtocolError("invalid_event", f"{param} must be {wanted}", param=param)
    return value


def _audio_format_rate(value: Any, param: str, allowed: range | tuple[int, ...]) -> int:
    """``{"type": "audio/pcm", "rate": R}`` or the beta string ``"pcm16"`` (24 kHz) -> the rate."""
    if value == "pcm16":
        return OPENAI_PCM_RATE
    if isinstance(value, str):
        raise ProtocolError("unsupported_audio_format", f"{param} {value!r} is not supported; use audio/pcm", param=param)
    _expect(value, dict, param)
    kind = value.get("type", "audio/pcm")
    if kind != "audio/pcm":
        raise ProtocolError("unsupported_audio_format", f"{param}.type {kind!r} is not supported; use audio/pcm", param=param)
    rate = value.get("rate", OPENAI_PCM_RATE)
    _expect(rate, int, f"{param}.rate")
    if rate not in allowed:
        raise ProtocolError("unsupported_audio_format", f"{param}.rate {rate} is not supported", param=f"{param}.rate")
    return rate


def _turn_detection(value: Any, current: TurnDetection | None, defaults: TurnDetection, param: str) -> TurnDetection | None:
    if value is None:
        return None
    _expect(value, dict, param)
    kind = value.get("type", "server_vad")
    if kind not in ("server_vad", "semantic_vad"):
        raise ProtocolError("invalid_event", f"{param}.type must be server_vad", param=f"{param}.type")
    base = current or defaults
    changes: dict[str, Any] = {}
    for name, kind_ in (
        ("silence_duration_ms", int),
        ("prefix_padding_ms", int),
        ("threshold", (int, float)),
        ("create_response", bool),
        ("interrupt_response", bool),
    ):
        if name in value and value[name] is not None:
            changes[name] = _expect(value[name], kind_, f"{param}.{name}")
    if "threshold" in changes and not 0.0 < float(changes["threshold"]) < 1.0:
        raise ProtocolError("invalid_event", f"{param}.threshold must be between 0 and 1", param=f"{param}.threshold")
    if changes.get("silence_duration_ms", 1) <= 0 or changes.get("prefix_padding_ms", 0) < 0:
        raise ProtocolError("invalid_event", f"{param} durations must be positive", param=param)
    return replace(base, **changes)


def _modalities(value: Any, param: str) -> bool:
    """``["audio"]`` / beta ``["text", "audio"]`` -> True (spoken), ``["text"]`` -> False."""
    _expect(value, list, param)
    if not value or any(m not in ("text", "audio") for m in value):
        raise ProtocolError("invalid_event", f"{param} must be ['audio'] or ['text']", param=param)
    return "audio" in value


def apply_session_update(
    config: SessionConfig, patch: dict[str, Any], *, defaults: TurnDetection, max_tokens_limit: int
) -> SessionConfig:
    """The config after a ``session.update``: GA nested fields, beta flat fields, unknown fields ignored."""
    _expect(patch, dict, "session")
    changes: dict[str, Any] = {}
    if "instructions" in patch:
        changes["instructions"] = _expect(patch["instructions"], str, "session.instructions")
    for name in ("output_modalities", "modalities"):
        if name in patch:
            changes["output_audio"] = _modalities(patch[name], f"session.{name}")
    if "max_output_tokens" in patch or "max_response_output_tokens" in patch:
        name = "max_output_tokens" if "max_output_tokens" in patch else "max_response_output_tokens"
        value = patch[name]
        if value == "inf":
            changes["max_output_tokens"] = max_tokens_limit
        else:
            _expect(value, int, f"session.{name}")
            if value < 1:
                raise ProtocolError("invalid_event", f"session.{name} must be at least 1", param=f"session.{name}")
            changes["max_output_tokens"] = min(value, max_tokens_limit)
    if "voice" in patch:
        changes["voice"] = _expect(patch["voice"], str, "session.voice")
    # beta flat names
    if "input_audio_format" in patch:
        changes["input_rate"] = _audio_format_rate(patch["input_audio_format"], "session.input_audio_format", INPUT_RATES)
    if "output_audio_format" in patch:
        changes["output_rate"] = _audio_format_rate(patch["output_audio_format"], "session.output_audio_format", OUTPUT_RATES)
    if "turn_detection" in patch:
        changes["turn_detection"] = _turn_detection(
            patch["turn_detection"], config.turn_detection, defaults, "session.turn_detection"
        )
    if patch.get("input_audio_transcription") is not None:
        changes["transcription"] = _expect(patch["input_audio_transcription"], dict, "session.input_audio_transcription")
    # GA nested names
    audio = patch.get("audio")
    if audio is not None:
        _expect(audio, dict, "session.audio")
        audio_in = audio.get("input")
        if audio_in is not None:
            _expect(audio_in, dict, "session.audio.input")
            if "format" in audio_in:
                changes["input_rate"] = _audio_format_rate(audio_in["format"], "session.audio.input.format", INPUT_RATES)
            if "turn_detection" in audio_in:
                changes["turn_detection"] = _turn_detection(
                    audio_in["turn_detection"], config.turn_detection, defaults, "session.audio.input.turn_detection"
                )
            if audio_in.get("transcription") is not None:
                changes["transcription"] = _expect(audio_in["transcription"], dict, "session.audio.input.transcription")
        audio_out = audio.get("output")
        if audio_out is not None:
            _expect(audio_out, dict, "session.audio.output")
            if "format" in audio_out:
                changes["output_rate"] = _audio_format_rate(audio_out["format"], "session.audio.output.format", OUTPUT_RATES)
            if "voice" in audio_out:
                changes["voice"] = _expect(audio_out["voice"], str, "session.audio.output.voice")
    return replace(config, **changes)


# --------------------------------------------------------------------------------------------
# Client events


@dataclass(frozen=True)
class SessionUpdate:
    session: dict[str, Any]
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
    """A message: typed ``text``, or recorded ``audio`` (PCM16 at the session's input rate) to transcribe."""

    role: Literal["user", "system"]
    text: str
    item_id: str
    event_id: str | None = None
    audio: bytes = b""


@dataclass(frozen=True)
class ItemTruncate:
    item_id: str
    content_index: int
    audio_end_ms: int
    event_id: str | None = None


@dataclass(frozen=True)
class InputMessage:
    """A message given inline as an out-of-band response's context."""

    role: Literal["user", "assistant", "system"]
    text: str


@dataclass(frozen=True)
class ResponseCreate:
    output_audio: bool | None = None  # None: the session's setting
    instructions: str | None = None
    max_output_tokens: int | Literal["inf"] | None = None
    event_id: str | None = None
    # conversation "none": the response is not added to the conversation and runs beside its reply
    out_of_band: bool = False
    metadata: dict[str, str] | None = None  # echoed in the response object
    # out-of-band context instead of the conversation: item ids (str) of stored items, or inline messages
    input: tuple[str | InputMessage, ...] | None = None


@dataclass(frozen=True)
class ResponseCancel:
    response_id: str | None = None
    event_id: str | None = None


ClientEvent = SessionUpdate | AudioAppend | AudioCommit | AudioClear | ItemCreate | ItemTruncate | ResponseCreate | ResponseCancel


class _Wire(BaseModel):
    """Strict shapes of the client events' fields (wrong types are errors, unknown fields ignored)."""

    model_config = ConfigDict(extra="ignore", strict=True)


class _SessionUpdateWire(_Wire):
    session: dict[str, Any]


class _AppendWire(_Wire):
    audio: StrictStr


class _ContentWire(_Wire):
    type: StrictStr
    text: StrictStr | None = None
    audio: StrictStr | None = None  # input_audio: base64 PCM16 at the session's input rate


class _ItemWire(_Wire):
    id: StrictStr | None = None
    type: StrictStr = "message"
    role: StrictStr = "user"
    content: list[_ContentWire]


class _ItemCreateWire(_Wire):
    item: _ItemWire
    previous_item_id: StrictStr | None = None


class _TruncateWire(_Wire):
    item_id: StrictStr
    content_index: StrictInt = 0
    audio_end_ms: StrictInt


class _InputItemWire(_Wire):
    type: StrictStr = "message"
    id: StrictStr | None = None
    role: StrictStr = "user"
    content: list[_ContentWire] = []


class _ResponseParamsWire(_Wire):
    conversation: StrictStr | None = None
    metadata: dict[StrictStr, StrictStr] | None = None
    input: list[_InputItemWire] | None = None
    output_modalities: list[StrictStr] | None = None
    modalities: list[StrictStr] | None = None
    instructions: StrictStr | None = None
    max_output_tokens: StrictInt | Literal["inf"] | None = None
    max_response_output_tokens: StrictInt | Literal["inf"] | None = None


class _ResponseCreateWire(_Wire):
    response: _ResponseParamsWire | None = None


class _ResponseCancelWire(_Wire):
    response_id: StrictStr | None = None


def _validated(model: type[_Wire], data: dict[str, Any], event_id: str | None) -> Any:
    try:
        return model.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        param = ".".join(str(part) for part in first["loc"]) or None
        problem = "is required" if first["type"] == "missing" else f"is invalid ({first['msg']})"
        raise ProtocolError("invalid_event", f"{param} {problem}", param=param, event_id=event_id) from None


def decode_text_frame(frame: str | bytes) -> dict[str, Any]:
    """A text frame -> its JSON object (``invalid_utf8`` / ``invalid_json`` otherwise)."""
    if isinstance(frame, bytes):
        try:
            frame = frame.decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError("invalid_utf8", "text frame is not valid UTF-8") from None
    try:
        data = json.loads(frame)
    except ValueError:
        raise ProtocolError("invalid_json", "text frame is not valid JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError("invalid_json", "an event must be a JSON object")
    return data


def parse_client_event(data: dict[str, Any], *, max_text_chars: int) -> ClientEvent:
    """A decoded JSON object -> a typed client event, or :class:`ProtocolError`."""
    event_id = data.get("event_id") if isinstance(data.get("event_id"), str) else None
    kind = data.get("type")
    if not isinstance(kind, str):
        raise ProtocolError("unknown_event", "event has no string 'type'", param="type", event_id=event_id)

    if kind == "session.update":
        return SessionUpdate(_validated(_SessionUpdateWire, data, event_id).session, event_id)
    if kind == "input_audio_buffer.append":
        return AudioAppend(_base64_pcm16(_validated(_AppendWire, data, event_id).audio, "audio", event_id), event_id)
    if kind == "input_audio_buffer.commit":
        return AudioCommit(event_id)
    if kind == "input_audio_buffer.clear":
        return AudioClear(event_id)
    if kind == "conversation.item.create":
        return _item_create(_validated(_ItemCreateWire, data, event_id), event_id, max_text_chars)
    if kind == "conversation.item.truncate":
        wire = _validated(_TruncateWire, data, event_id)
        return ItemTruncate(wire.item_id, wire.content_index, wire.audio_end_ms, event_id)
    if kind == "response.create":
        return _response_create(_validated(_ResponseCreateWire, data, event_id), event_id, max_text_chars)
    if kind == "response.cancel":
        return ResponseCancel(_validated(_ResponseCancelWire, data, event_id).response_id, event_id)
    raise ProtocolError("unknown_event", f"unknown event type {kind[:64]!r}", param="type", event_id=event_id)


def _base64_pcm16(encoded: str | None, param: str, event_id: str | None) -> bytes:
    if encoded is None:
        raise ProtocolError("invalid_event", "audio is required", param=param, event_id=event_id)
    try:
        pcm = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError):
        raise ProtocolError("invalid_audio", "audio is not valid base64", param=param, event_id=event_id) from None
    if len(pcm) % 2:
        raise ProtocolError("invalid_audio", "PCM16 audio must have an even number of bytes", param=param, event_id=event_id)
    return pcm


def _item_create(wire: _ItemCreateWire, event_id: str | None, max_text_chars: int) -> ItemCreate:
    item = wire.item
    if item.type != "message":
        raise ProtocolError("invalid_event", "only message items can be created", param="item.type", event_id=event_id)
    if item.role not in ("user", "system"):
        raise ProtocolError("invalid_event", "item.role must be 'user' or 'system'", param="item.role", event_id=event_id)
    texts: list[str] = []
    audio: list[bytes] = []
    for index, part in enumerate(item.content):
        if part.type == "input_audio" and item.role == "user":
            audio.append(_base64_pcm16(part.audio, f"item.content.{index}.audio", event_id))
            continue
        if part.type not in ("input_text", "text"):
            raise ProtocolError(
                "invalid_event", f"content type {part.type!r} is not supported; use input_text or (user) input_audio",
                param=f"item.content.{index}.type", event_id=event_id,
            )
        if part.text is None:
            raise ProtocolError("invalid_event", "text is required", param=f"item.content.{index}.text", event_id=event_id)
        texts.append(part.text)
    if audio:
        if texts:
            raise ProtocolError("invalid_event", "an item holds text or audio, not both", param="item.content", event_id=event_id)
        return ItemCreate("user", "", item.id or new_id("item"), event_id, audio=b"".join(audio))
    text = "".join(texts).strip()
    if not text:
        raise ProtocolError("empty_input", "the message has no text", param="item.content", event_id=event_id)
    _check_length(text, max_text_chars, "item.content", event_id)
    return ItemCreate(item.role, text, item.id or new_id("item"), event_id)  # type: ignore[arg-type]


def _check_length(text: str, max_text_chars: int, param: str, event_id: str | None) -> None:
    if len(text) > max_text_chars:
        raise ProtocolError(
            "text_too_long", f"text is {len(text)} characters; the limit is {max_text_chars}",
            param=param, event_id=event_id,
        )


MAX_METADATA_ENTRIES = 16  # OpenAI's limits on response metadata
MAX_METADATA_KEY_CHARS = 64
MAX_METADATA_VALUE_CHARS = 512


def _response_create(wire: _ResponseCreateWire, event_id: str | None, max_text_chars: int) -> ResponseCreate:
    params = wire.response
    if params is None:
        return ResponseCreate(event_id=event_id)

    def invalid(message: str, param: str) -> ProtocolError:
        return ProtocolError("invalid_event", message, param=param, event_id=event_id)

    if params.conversation not in (None, "auto", "none"):
        raise invalid("response.conversation must be 'auto' or 'none'", "response.conversation")
    out_of_band = params.conversation == "none"
    if params.input is not None and not out_of_band:
        raise invalid("response.input needs response.conversation 'none'", "response.input")
    metadata = params.metadata
    if metadata is not None and (
        len(metadata) > MAX_METADATA_ENTRIES
        or any(len(k) > MAX_METADATA_KEY_CHARS or len(v) > MAX_METADATA_VALUE_CHARS for k, v in metadata.items())
    ):
        raise invalid(
            f"response.metadata holds at most {MAX_METADATA_ENTRIES} entries, keys up to {MAX_METADATA_KEY_CHARS} "
            f"and values up to {MAX_METADATA_VALUE_CHARS} characters", "response.metadata",
        )
    context = None if params.input is None else tuple(
        _input_item(item, f"response.input.{index}", max_text_chars, event_id) for index, item in enumerate(params.input)
    )
    modalities = params.output_modalities if params.output_modalities is not None else params.modalities
    output_audio = None
    if modalities is not None:
        try:
            output_audio = _modalities(modalities, "response.output_modalities")
        except ProtocolError as error:
            error.event_id = event_id
            raise
    tokens = params.max_output_tokens if params.max_output_tokens is not None else params.max_response_output_tokens
    if isinstance(tokens, int) and tokens < 1:
        raise ProtocolError("invalid_event", "max_output_tokens must be at least 1", param="response.max_output_tokens", event_id=event_id)
    if out_of_band and output_audio:
        raise invalid("out-of-band responses (conversation 'none') are text only", "response.output_modalities")
    return ResponseCreate(output_audio, params.instructions, tokens, event_id, out_of_band, metadata, context)


def _input_item(item: _InputItemWire, param: str, max_text_chars: int, event_id: str | None) -> str | InputMessage:
    """One entry of an out-of-band response's ``input``: a reference to a stored item, or a message."""
    if item.type == "item_reference":
        if not item.id:
            raise ProtocolError("invalid_event", "an item_reference needs an id", param=f"{param}.id", event_id=event_id)
        return item.id
    if item.type != "message" or item.role not in ("user", "assistant", "system"):
        raise ProtocolError(
            "invalid_event", "input items are item_reference or message items of role user, assistant or system",
            param=param, event_id=event_id,
        )
    parts = [part for part in item.content if part.type in ("input_text", "text", "output_text") and part.text]
    text = "".join(part.text for part in parts).strip()  # type: ignore[misc]
    if not text or len(parts) != len(item.content):
        raise ProtocolError("invalid_event", "input messages hold text only", param=f"{param}.content", event_id=event_id)
    _check_length(text, max_text_chars, f"{param}.content", event_id)
    return InputMessage(item.role, text)  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------------
# Server events


def server_event(kind: str, **fields: Any) -> dict[str, Any]:
    """A server event with a fresh ``event_id``."""
    return {"type": kind, "event_id": new_id("event"), **fields}


def error_event(code: str, message: str, *, param: str | None = None, event_id: str | None = None) -> dict[str, Any]:
    kind = "server_error" if code in ("stage_failed", "internal_error") else "invalid_request_error"
    return server_event(
        "error", error={"type": kind, "code": code, "message": message, "param": param, "event_id": event_id}
    )


def message_item(
    item_id: str,
    role: str,
    *,
    text: str | None,
    audio: bool,
    status: str = "completed",
) -> dict[str, Any]:
    """A conversation item; user audio / assistant audio carry ``transcript``, text parts ``text``."""
    if role == "assistant":
        part = {"type": "output_audio", "transcript": text} if audio else {"type": "output_text", "text": text}
    elif role == "user" and audio:
        part = {"type": "input_audio", "transcript": text}
    else:
        part = {"type": "input_text", "text": text}
    return {"id": item_id, "object": "realtime.item", "type": "message", "role": role, "status": status, "content": [part]}


def response_object(
    response_id: str,
    *,
    status: str,
    output_audio: bool,
    output: list[dict[str, Any]] | None = None,
    status_details: dict[str, Any] | None = None,
    usage: dict[str, Any] | None = None,
    latency: dict[str, Any] | None = None,
    conversation_id: str | None = None,
    metadata: dict[str, str] | None = None,
) -> dict[str, Any]:
    body: dict[str, Any] = {
        "id": response_id,
        "object": "realtime.response",
        "status": status,
        "status_details": status_details,
        "output_modalities": ["audio"] if output_audio else ["text"],
        "output": output or [],
        "conversation_id": conversation_id,
        "metadata": metadata,
    }
    if usage is not None:
        body["usage"] = usage
    if latency is not None:
        body["latency"] = latency
    return body


def encode_audio(pcm16: bytes) -> str:
    return base64.b64encode(pcm16).decode("ascii")


__all__ = [
    "AudioAppend", "AudioClear", "AudioCommit", "ClientEvent", "ItemCreate", "ItemTruncate", "ProtocolError",
    "InputMessage", "ResponseCancel", "ResponseCreate", "SessionConfig", "SessionUpdate", "TurnDetection", "apply_session_update",
    "decode_text_frame", "encode_audio", "error_event", "message_item", "new_id", "parse_client_event",
    "response_object", "server_event",
]
