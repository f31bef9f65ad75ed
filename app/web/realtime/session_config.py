"""The session's settings: what ``session.update`` may change (validated by strict pydantic models,
with upper bounds on every number and string), and the ``session`` object the client sees.

GA nested fields and the beta flat names are both read. What this server cannot do is refused
with an error instead of being ignored: transcription sessions, ``semantic_vad`` where the LLM backend cannot
score the end of a turn (the remote one), ``tools`` where the model takes none, and a ``speed`` other than 1 where the
voice speaks at one speed only.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictFloat, StrictInt, StrictStr

from app.web.realtime.function_calls import ToolChoice, checked_tool_choice, checked_tools, tools_unsupported
from app.web.realtime.wire import ProtocolError

OUTPUT_RATES = range(8000, 48001)
INPUT_RATES = (16000, 24000)
OPENAI_PCM_RATE = 24000  # the only rate of the SDK's ``audio/pcm`` format
MAX_SILENCE_MS = 10_000
MAX_PREFIX_PADDING_MS = 2_000
MAX_NAME_CHARS = 64  # voice, model, transcription model and language
EAGERNESS = ("low", "medium", "high", "auto")
MIN_SPEED, MAX_SPEED = 0.25, 1.5  # the protocol's bounds of ``audio.output.speed``


class Strict(BaseModel):
    """Strict shapes of client fields: wrong types are errors, unknown fields are ignored."""

    model_config = ConfigDict(extra="ignore", strict=True)


class FormatPatch(Strict):
    type: StrictStr = "audio/pcm"
    rate: StrictInt | None = None


class TurnDetectionPatch(Strict):
    type: StrictStr = "server_vad"
    threshold: StrictFloat | StrictInt | None = Field(None, gt=0, lt=1)
    prefix_padding_ms: StrictInt | None = Field(None, ge=0, le=MAX_PREFIX_PADDING_MS)
    silence_duration_ms: StrictInt | None = Field(None, ge=1, le=MAX_SILENCE_MS)
    eagerness: StrictStr | None = Field(None, max_length=MAX_NAME_CHARS)
    create_response: StrictBool | None = None
    interrupt_response: StrictBool | None = None


class TranscriptionPatch(Strict):
    model: StrictStr | None = Field(None, max_length=MAX_NAME_CHARS)
    language: StrictStr | None = Field(None, max_length=MAX_NAME_CHARS)
    prompt: StrictStr | None = Field(None, max_length=4000)


class AudioInputPatch(Strict):
    format: FormatPatch | StrictStr | None = None
    turn_detection: TurnDetectionPatch | None = None
    transcription: TranscriptionPatch | None = None


class AudioOutputPatch(Strict):
    format: FormatPatch | StrictStr | None = None
    voice: StrictStr | None = Field(None, max_length=MAX_NAME_CHARS)
    speed: StrictFloat | StrictInt | None = Field(None, ge=MIN_SPEED, le=MAX_SPEED)


class AudioPatch(Strict):
    input: AudioInputPatch | None = None
    output: AudioOutputPatch | None = None


class SessionPatch(Strict):
    """A ``session.update``'s ``session``; ``model_fields_set`` tells what the client sent."""

    type: StrictStr | None = None
    instructions: StrictStr | None = None
    output_modalities: list[StrictStr] | None = None
    modalities: list[StrictStr] | None = None
    max_output_tokens: StrictInt | Literal["inf"] | None = None
    max_response_output_tokens: StrictInt | Literal["inf"] | None = None
    voice: StrictStr | None = Field(None, max_length=MAX_NAME_CHARS)
    speed: StrictFloat | StrictInt | None = Field(None, ge=MIN_SPEED, le=MAX_SPEED)
    audio: AudioPatch | None = None
    input_audio_format: FormatPatch | StrictStr | None = None
    output_audio_format: FormatPatch | StrictStr | None = None
    turn_detection: TurnDetectionPatch | None = None
    input_audio_transcription: TranscriptionPatch | None = None
    tools: list[dict[str, Any]] | None = None
    tool_choice: StrictStr | dict[str, Any] | None = None


@dataclass(frozen=True)
class TurnDetection:
    """Turn detection a client may tune (``session.audio.input.turn_detection``): ``server_vad`` ends a turn after
    ``silence_duration_ms``; ``semantic_vad`` after a silence the words said so far decide, by ``eagerness``
    (``app/vad/end_of_turn.py``), the VAD's threshold and padding as set."""

    silence_duration_ms: int
    threshold: float
    prefix_padding_ms: int
    create_response: bool = True
    interrupt_response: bool = True
    type: Literal["server_vad", "semantic_vad"] = "server_vad"
    eagerness: str = "auto"

    def to_wire(self) -> dict[str, Any]:
        if self.type == "semantic_vad":
            return {"type": "semantic_vad", "eagerness": self.eagerness, "create_response": self.create_response,
                    "interrupt_response": self.interrupt_response}  # fmt: skip
        return {
            "type": "server_vad",
            "threshold": self.threshold,
            "prefix_padding_ms": self.prefix_padding_ms,
            "silence_duration_ms": self.silence_duration_ms,
            "create_response": self.create_response,
            "interrupt_response": self.interrupt_response,
        }


def audio_format(rate: int) -> dict[str, Any]:
    """The SDK's ``audio/pcm`` format says 24 kHz only: another rate goes in ``sample_rate`` (an extension),
    so the object still validates for a standard client."""
    return {"type": "audio/pcm", "rate": rate} if rate == OPENAI_PCM_RATE else {"type": "audio/pcm", "sample_rate": rate}


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
    speed: float = 1.0  # the spoken reply's rate, a multiple of the voice's own; a reply keeps the one it began with
    transcription: dict[str, Any] = field(default_factory=lambda: {"model": "whisper"})
    tools: tuple[dict[str, Any], ...] = ()  # checked (``function_calls.checked_tools``)
    tool_choice: ToolChoice = "auto"

    def to_wire(self, session_id: str, max_output_tokens_limit: int) -> dict[str, Any]:
        return {
            "id": session_id,
            "object": "realtime.session",
            "type": "realtime",
            "model": self.model,
            "instructions": self.instructions,
            "output_modalities": ["audio"] if self.output_audio else ["text"],
            "max_output_tokens": "inf" if self.max_output_tokens >= max_output_tokens_limit else self.max_output_tokens,
            "tools": list(self.tools),
            "tool_choice": self.tool_choice,
            "audio": {
                "input": {
                    "format": audio_format(self.input_rate),
                    "turn_detection": self.turn_detection.to_wire() if self.turn_detection else None,
                    "transcription": self.transcription,
                },
                "output": {"format": audio_format(self.output_rate), "voice": self.voice, "speed": self.speed},
            },
        }


def modalities_audio(value: list[str], param: str) -> bool:
    """``["audio"]`` / beta ``["text", "audio"]`` -> True (spoken), ``["text"]`` -> False."""
    if not value or any(m not in ("text", "audio") for m in value):
        raise ProtocolError("invalid_event", f"{param} must be ['audio'] or ['text']", param=param)
    return "audio" in value


def _rate(value: FormatPatch | str, param: str, allowed: range | tuple[int, ...]) -> int:
    """``{"type": "audio/pcm", "rate": R}`` or the beta string ``"pcm16"`` (24 kHz) -> the rate."""
    if isinstance(value, str):
        if value == "pcm16":
            return OPENAI_PCM_RATE
        raise ProtocolError("unsupported_audio_format", f"{param} {value[:32]!r} is not supported; use audio/pcm", param=param)
    if value.type != "audio/pcm":
        raise ProtocolError("unsupported_audio_format", f"{param}.type {value.type[:32]!r} is not supported; use audio/pcm",
                            param=f"{param}.type")  # fmt: skip
    rate = OPENAI_PCM_RATE if value.rate is None else value.rate
    if rate not in allowed:
        raise ProtocolError("unsupported_audio_format", f"{param}.rate {rate} is not supported", param=f"{param}.rate")
    return rate


def _turn_detection(
    patch: TurnDetectionPatch | None, current: TurnDetection | None, defaults: TurnDetection, param: str,
    end_of_turn_supported: bool,
) -> TurnDetection | None:
    if patch is None:
        return None
    if patch.type not in ("server_vad", "semantic_vad"):
        raise ProtocolError("invalid_event", f"{param}.type must be server_vad or semantic_vad", param=f"{param}.type")
    if patch.type == "semantic_vad" and not end_of_turn_supported:
        raise ProtocolError("unsupported_feature", f"{param}.type semantic_vad needs the local engine to score the end of "
                            "a turn; use server_vad", param=f"{param}.type")  # fmt: skip
    if patch.eagerness is not None and patch.eagerness not in EAGERNESS:
        raise ProtocolError("invalid_event", f"{param}.eagerness must be one of {', '.join(EAGERNESS)}",
                            param=f"{param}.eagerness")  # fmt: skip
    base = current or defaults
    changes: dict[str, Any] = {
        name: value
        for name, value in patch.model_dump(exclude={"type", "eagerness"}).items()
        if value is not None
    }
    if "threshold" in changes:
        changes["threshold"] = float(changes["threshold"])
    changes["type"] = patch.type
    changes["eagerness"] = "auto"
    if patch.type == "semantic_vad" and (patch.eagerness or base.type == "semantic_vad"):
        changes["eagerness"] = patch.eagerness or base.eagerness
    return replace(base, **changes)


def _refuse_unsupported(patch: SessionPatch) -> None:
    if patch.type not in (None, "realtime"):
        raise ProtocolError("unsupported_feature", f"session.type {patch.type[:32]!r} is not supported; use 'realtime'",
                            param="session.type")  # fmt: skip


def _tool_changes(config: SessionConfig, patch: SessionPatch, tools_supported: bool) -> dict[str, Any]:
    changes: dict[str, Any] = {}
    if patch.tools is not None:
        if patch.tools and not tools_supported:
            raise tools_unsupported(config.model, "session.tools")
        changes["tools"] = checked_tools(patch.tools, "session.tools")
    if patch.tool_choice is not None:
        changes["tool_choice"] = checked_tool_choice(patch.tool_choice, changes.get("tools", config.tools),
                                                     "session.tool_choice")  # fmt: skip
    return changes


def _speed(value: float, param: str, speed_supported: bool) -> float:
    if value != 1 and not speed_supported:
        raise ProtocolError("unsupported_feature", f"this server's voice speaks at one speed only; {param} must be 1",
                            param=param)  # fmt: skip
    return float(value)


def _transcription(patch: TranscriptionPatch, param: str, languages: frozenset[str] | None) -> dict[str, Any]:
    """The transcription settings; ``language`` must be one the shared recogniser's model transcribes (``languages``;
    None: any), and the session's speech is then transcribed in it."""
    changes = patch.model_dump(exclude_none=True)
    language = patch.language
    if language is None or languages is None:
        return changes
    language = changes["language"] = language.lower()
    if language not in languages:
        if languages == {"en"}:
            raise ProtocolError("unsupported_feature", f"this server's speech model transcribes English only; a session "
                                f"cannot choose {language!r} (a multilingual asr_model, such as base, can)",
                                param=f"{param}.language")  # fmt: skip
        raise ProtocolError("invalid_event", f"{language!r} is not a language the speech model knows: give an ISO 639-1 "
                            "code such as 'en', 'es' or 'fr'", param=f"{param}.language")  # fmt: skip
    return changes


def apply_session_update(
    config: SessionConfig, patch: SessionPatch, *, defaults: TurnDetection, max_tokens_limit: int,
    tools_supported: bool = True, end_of_turn_supported: bool = False, asr_languages: frozenset[str] | None = None,
    speed_supported: bool = True,
) -> SessionConfig:
    """The config after a ``session.update``: GA nested fields, beta flat fields, unknown fields ignored.
    ``end_of_turn_supported``: the session can score the end of a turn (``semantic_vad``); ``asr_languages``: the
    language codes the shared recogniser transcribes (None: any); ``speed_supported``: the voice speaks at other
    speeds than its own."""
    _refuse_unsupported(patch)
    sent = patch.model_fields_set
    changes: dict[str, Any] = _tool_changes(config, patch, tools_supported)
    if patch.instructions is not None:
        changes["instructions"] = patch.instructions
    for name in ("output_modalities", "modalities"):
        value = getattr(patch, name)
        if value is not None:
            changes["output_audio"] = modalities_audio(value, f"session.{name}")
    name = "max_output_tokens" if patch.max_output_tokens is not None else "max_response_output_tokens"
    tokens = getattr(patch, name)
    if tokens is not None:
        if tokens != "inf" and tokens < 1:
            raise ProtocolError("invalid_event", f"session.{name} must be at least 1", param=f"session.{name}")
        changes["max_output_tokens"] = max_tokens_limit if tokens == "inf" else min(tokens, max_tokens_limit)
    if patch.voice is not None:
        changes["voice"] = patch.voice
    if patch.speed is not None:
        changes["speed"] = _speed(patch.speed, "session.speed", speed_supported)
    # beta flat names
    if patch.input_audio_format is not None:
        changes["input_rate"] = _rate(patch.input_audio_format, "session.input_audio_format", INPUT_RATES)
    if patch.output_audio_format is not None:
        changes["output_rate"] = _rate(patch.output_audio_format, "session.output_audio_format", OUTPUT_RATES)
    if "turn_detection" in sent:
        changes["turn_detection"] = _turn_detection(patch.turn_detection, config.turn_detection, defaults,
                                                    "session.turn_detection", end_of_turn_supported)  # fmt: skip
    if patch.input_audio_transcription is not None:
        changes["transcription"] = _transcription(patch.input_audio_transcription, "session.input_audio_transcription",
                                                  asr_languages)
    # GA nested names
    audio_in = patch.audio.input if patch.audio else None
    if audio_in is not None:
        param = "session.audio.input"
        if audio_in.format is not None:
            changes["input_rate"] = _rate(audio_in.format, f"{param}.format", INPUT_RATES)
        if "turn_detection" in audio_in.model_fields_set:
            changes["turn_detection"] = _turn_detection(audio_in.turn_detection, config.turn_detection, defaults,
                                                        f"{param}.turn_detection", end_of_turn_supported)  # fmt: skip
        if audio_in.transcription is not None:
            changes["transcription"] = _transcription(audio_in.transcription, f"{param}.transcription", asr_languages)
    audio_out = patch.audio.output if patch.audio else None
    if audio_out is not None:
        if audio_out.format is not None:
            changes["output_rate"] = _rate(audio_out.format, "session.audio.output.format", OUTPUT_RATES)
        if audio_out.voice is not None:
            changes["voice"] = audio_out.voice
        if audio_out.speed is not None:
            changes["speed"] = _speed(audio_out.speed, "session.audio.output.speed", speed_supported)
    return replace(config, **changes)
