"""What every part of the protocol shares: the client-mistake error, ids, the speech input rate, and the decoding
of a text frame into a JSON object that is safe to hold (bounded nesting, integers a client can also read,
strings that encode back to UTF-8)."""

from __future__ import annotations

import json
import math
import secrets
from typing import Any

MAX_JSON_DEPTH = 32  # the deepest real event (a session.update) nests 6 levels
MAX_SAFE_INTEGER = 2**53 - 1  # what a JavaScript client can hold exactly
INPUT_RATE = 16000  # binary audio frames come at this rate; the VAD and ASR take it, other rates are resampled to it


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


def _no_constant(name: str) -> Any:
    raise ProtocolError("invalid_json", f"{name} is not a JSON number")


def decode_text_frame(frame: str | bytes) -> dict[str, Any]:
    """A text frame -> its JSON object (``invalid_utf8`` / ``invalid_json`` / ``invalid_event`` otherwise)."""
    if isinstance(frame, bytes):
        try:
            frame = frame.decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError("invalid_utf8", "text frame is not valid UTF-8") from None
    try:
        data = json.loads(frame, parse_constant=_no_constant)
    except RecursionError:
        raise ProtocolError("invalid_json", f"JSON nests deeper than {MAX_JSON_DEPTH} levels") from None
    except ValueError as error:  # includes integers of over 4300 digits
        detail = "an integer is too long" if "digits" in str(error) else "text frame is not valid JSON"
        raise ProtocolError("invalid_json", detail) from None
    if not isinstance(data, dict):
        raise ProtocolError("invalid_json", "an event must be a JSON object")
    event_id = data.get("event_id") if isinstance(data.get("event_id"), str) else None
    _check_values(data, "", 0, event_id)
    return data


def _check_values(value: Any, path: str, depth: int, event_id: str | None) -> None:
    """Refuse what would break later: deep nesting, numbers no client can read back, lone surrogates."""
    if depth > MAX_JSON_DEPTH:
        raise ProtocolError("invalid_json", f"JSON nests deeper than {MAX_JSON_DEPTH} levels", event_id=event_id)
    param = path or None
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise ProtocolError(
                "invalid_event", f"{path or 'a string'} holds a lone UTF-16 surrogate (not a character)",
                param=param, event_id=event_id,
            ) from None
    elif isinstance(value, bool):
        return
    elif isinstance(value, int):
        if abs(value) > MAX_SAFE_INTEGER:
            raise ProtocolError(
                "invalid_event", f"{path or 'a number'} is out of range (at most {MAX_SAFE_INTEGER} in size)",
                param=param, event_id=event_id,
            )
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise ProtocolError("invalid_event", f"{path or 'a number'} is out of range", param=param, event_id=event_id)
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_values(key, path, depth + 1, event_id)
            _check_values(item, f"{path}.{key}" if path else key, depth + 1, event_id)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _check_values(item, f"{path}.{index}" if path else str(index), depth + 1, event_id)
