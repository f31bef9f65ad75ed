"""Every server event is built here, in the shape of the pinned ``openai`` SDK's server-event union
(``openai.types.realtime.RealtimeServerEvent``; tests validate each builder and every event of the
end-to-end sessions against it). Extra fields (``latency``, ``asr_ms``) are extensions the SDK keeps.
"""

from __future__ import annotations

import base64
from typing import Any, Literal

from app.web.realtime.wire import new_id

Item = dict[str, Any]
ItemStatus = Literal["completed", "incomplete", "in_progress"]
ResponseStatus = Literal["completed", "cancelled", "failed", "incomplete", "in_progress"]
SERVER_ERROR_CODES = ("stage_failed", "internal_error")


def event(kind: str, **fields: Any) -> dict[str, Any]:
    """A server event with a fresh ``event_id``."""
    return {"type": kind, "event_id": new_id("event"), **fields}


def error(code: str, message: str, *, param: str | None = None, event_id: str | None = None) -> dict[str, Any]:
    kind = "server_error" if code in SERVER_ERROR_CODES else "invalid_request_error"
    return event("error", error={"type": kind, "code": code, "message": message, "param": param, "event_id": event_id})


# ------------------------------------------------------------------ session


def session_created(session: dict[str, Any]) -> dict[str, Any]:
    return event("session.created", session=session)


def session_updated(session: dict[str, Any]) -> dict[str, Any]:
    return event("session.updated", session=session)


def rate_limits_updated(limits: list[tuple[Literal["requests", "tokens"], int, int, float]]) -> dict[str, Any]:
    """``(name, limit, remaining, reset_seconds)`` per limit."""
    rows = [{"name": name, "limit": limit, "remaining": left, "reset_seconds": reset} for name, limit, left, reset in limits]
    return event("rate_limits.updated", rate_limits=rows)


# ------------------------------------------------------------------ input audio


def speech_started(audio_start_ms: int, item_id: str) -> dict[str, Any]:
    return event("input_audio_buffer.speech_started", audio_start_ms=audio_start_ms, item_id=item_id)


def speech_stopped(audio_end_ms: int, item_id: str) -> dict[str, Any]:
    return event("input_audio_buffer.speech_stopped", audio_end_ms=audio_end_ms, item_id=item_id)


def audio_committed(item_id: str, previous_item_id: str | None) -> dict[str, Any]:
    return event("input_audio_buffer.committed", item_id=item_id, previous_item_id=previous_item_id)


def audio_cleared() -> dict[str, Any]:
    return event("input_audio_buffer.cleared")


def transcription_delta(item_id: str, delta: str, transcript: str) -> dict[str, Any]:
    """``delta``: only the words confirmed since the previous delta (a client appends deltas); extension
    ``transcript``: the whole latest partial, which may still change (the page shows it)."""
    return event("conversation.item.input_audio_transcription.delta", item_id=item_id, content_index=0, delta=delta,
                 transcript=transcript)  # fmt: skip


def transcription_completed(item_id: str, transcript: str, *, language: str, audio_s: float, asr_ms: float) -> dict[str, Any]:
    return event(
        "conversation.item.input_audio_transcription.completed",
        item_id=item_id, content_index=0, transcript=transcript,
        usage={"type": "duration", "seconds": round(audio_s, 3)},
        languages=[{"code": language}] if language else [], asr_ms=asr_ms,
    )  # fmt: skip


# ------------------------------------------------------------------ conversation


def message_item(item_id: str, role: str, *, text: str | None, audio: bool, status: ItemStatus = "completed") -> Item:
    """A message item; user audio / assistant audio carry ``transcript``, text parts ``text``."""
    if role == "assistant":
        part = {"type": "output_audio", "transcript": text} if audio else {"type": "output_text", "text": text}
    elif role == "user" and audio:
        part = {"type": "input_audio", "transcript": text}
    else:
        part = {"type": "input_text", "text": text}
    return {"id": item_id, "object": "realtime.item", "type": "message", "role": role, "status": status, "content": [part]}


def item_added(item: Item, previous_item_id: str | None) -> dict[str, Any]:
    return event("conversation.item.added", item=item, previous_item_id=previous_item_id)


def item_done(item: Item, previous_item_id: str | None) -> dict[str, Any]:
    return event("conversation.item.done", item=item, previous_item_id=previous_item_id)


def item_retrieved(item: Item) -> dict[str, Any]:
    return event("conversation.item.retrieved", item=item)


def item_deleted(item_id: str) -> dict[str, Any]:
    return event("conversation.item.deleted", item_id=item_id)


def item_truncated(item_id: str, audio_end_ms: int, transcript: str) -> dict[str, Any]:
    return event("conversation.item.truncated", item_id=item_id, content_index=0, audio_end_ms=audio_end_ms,
                 transcript=transcript)  # fmt: skip


# ------------------------------------------------------------------ responses


def response_object(
    response_id: str,
    *,
    status: ResponseStatus,
    output_audio: bool,
    output: list[Item] | None = None,
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


def usage(input_tokens: int | None, output_tokens: int) -> dict[str, Any]:
    """Token counts of a response; ``input_tokens`` (the prompt) where the LLM backend reports it."""
    if input_tokens is None:
        return {"output_tokens": output_tokens, "total_tokens": output_tokens,
                "output_token_details": {"text_tokens": output_tokens}}  # fmt: skip
    return {"input_tokens": input_tokens, "output_tokens": output_tokens, "total_tokens": input_tokens + output_tokens,
            "input_token_details": {"text_tokens": input_tokens},
            "output_token_details": {"text_tokens": output_tokens}}  # fmt: skip


def response_created(response: dict[str, Any]) -> dict[str, Any]:
    return event("response.created", response=response)


def response_done(response: dict[str, Any]) -> dict[str, Any]:
    return event("response.done", response=response)


def output_item_added(response_id: str, item: Item, output_index: int = 0) -> dict[str, Any]:
    return event("response.output_item.added", response_id=response_id, output_index=output_index, item=item)


def output_item_done(response_id: str, item: Item, output_index: int = 0) -> dict[str, Any]:
    return event("response.output_item.done", response_id=response_id, output_index=output_index, item=item)


# ------------------------------------------------------------------ function calling


def function_call_item(item_id: str, call_id: str, name: str, arguments: str, status: ItemStatus = "completed") -> Item:
    return {"id": item_id, "object": "realtime.item", "type": "function_call", "status": status,
            "call_id": call_id, "name": name, "arguments": arguments}  # fmt: skip


def function_call_output_item(item_id: str, call_id: str, output: str) -> Item:
    return {"id": item_id, "object": "realtime.item", "type": "function_call_output", "status": "completed",
            "call_id": call_id, "output": output}  # fmt: skip


def function_call_arguments_delta(response_id: str, item_id: str, output_index: int, call_id: str, delta: str) -> dict[str, Any]:
    return event("response.function_call_arguments.delta", response_id=response_id, item_id=item_id,
                 output_index=output_index, call_id=call_id, delta=delta)  # fmt: skip


def function_call_arguments_done(
    response_id: str, item_id: str, output_index: int, call_id: str, name: str, arguments: str
) -> dict[str, Any]:
    return event("response.function_call_arguments.done", response_id=response_id, item_id=item_id,
                 output_index=output_index, call_id=call_id, name=name, arguments=arguments)  # fmt: skip


class ContentEvents:
    """The events of one response's one content part (text, or audio with its transcript)."""

    def __init__(self, response_id: str, item_id: str, audio: bool, output_index: int = 0):
        self.ids = {"response_id": response_id, "item_id": item_id, "output_index": output_index, "content_index": 0}
        self.audio = audio

    def part(self, text: str) -> dict[str, Any]:
        return {"type": "audio", "transcript": text} if self.audio else {"type": "text", "text": text}

    def part_added(self) -> dict[str, Any]:
        return event("response.content_part.added", part=self.part(""), **self.ids)

    def part_done(self, text: str) -> dict[str, Any]:
        return event("response.content_part.done", part=self.part(text), **self.ids)

    def text_delta(self, delta: str) -> dict[str, Any]:
        kind = "response.output_audio_transcript.delta" if self.audio else "response.output_text.delta"
        return event(kind, delta=delta, **self.ids)

    def audio_delta(self, pcm16: bytes) -> dict[str, Any]:
        return event("response.output_audio.delta", delta=base64.b64encode(pcm16).decode("ascii"), **self.ids)

    def done(self, text: str) -> list[dict[str, Any]]:
        """The closing events of the content, before ``content_part.done``."""
        if self.audio:
            return [event("response.output_audio.done", **self.ids),
                    event("response.output_audio_transcript.done", transcript=text, **self.ids)]  # fmt: skip
        return [event("response.output_text.done", text=text, **self.ids)]
