"""Function calling in the model's own format: declaring tools and reading calls out of a streamed reply.

Qwen2.5's chat template lists the declared tools in the system turn and asks for each call as
``<tool_call>{"name": ..., "arguments": {...}}</tool_call>``. Small models often write the same JSON
object bare, inside a ```json fence or another tag, or with the doubled braces the template itself
shows, so a reply that *starts* with such an object counts as a call too. Text that might still turn
into a call is held back, so a call is never spoken or shown.
"""

from __future__ import annotations

import json
import re
import uuid
from dataclasses import dataclass, field

import jsonschema

OPEN_TAG = "<tool_call>"
CLOSE_TAG = "</tool_call>"
FENCE = "```"
OPENING_FENCE = re.compile(r"```(?:[\w+-]*\n)?")  # with a language name on its own line: "```json\n", "```text\n"
# Tags small models put around a call instead, accepted at the start of a reply only.
START_TAGS = {OPEN_TAG: CLOSE_TAG, "<tools>": "</tools>", "<function_call>": "</function_call>"}
# how the template shows the model a tool's answer; a reply that opens with it repeats that answer, not speech
ANSWER_TAGS = ("<tool_response>", "</tool_response>")


class ToolsUnsupportedError(ValueError):
    """The model's chat template has no tool format."""


def template_supports_tools(chat_template: str | None) -> bool:
    """Whether a chat template renders a ``tools`` list (Qwen2.5's does; SmolLM2's ignores it)."""
    return bool(chat_template) and "tools" in chat_template


def template_tools(tools: list[dict]) -> list[dict]:
    """Realtime API tool declarations (``{"type": "function", "name", "description", "parameters"}``) in the
    chat-template shape (``{"type": "function", "function": {...}}``)."""
    return [
        {
            "type": "function",
            "function": {
                "name": tool["name"],
                "description": tool.get("description", ""),
                "parameters": tool.get("parameters") or {"type": "object", "properties": {}},
            },
        }
        for tool in tools
    ]


def forced_call_prefix(tool_choice: str | dict) -> str:
    """Reply text written for the model when the client requires a call (``"required"``) or names the
    function: the model continues from inside the call, so it cannot answer in prose instead."""
    if isinstance(tool_choice, dict):
        return f'{OPEN_TAG}\n{{"name": "{tool_choice["name"]}", "arguments": '
    return f'{OPEN_TAG}\n{{"name": "' if tool_choice == "required" else ""


@dataclass
class ToolCall:
    name: str
    arguments: str  # a JSON object, as text
    call_id: str = field(default_factory=lambda: f"call_{uuid.uuid4().hex[:20]}")


@dataclass
class MalformedCall:
    """Text the model meant as a call but that does not parse as one."""

    raw: str
    reason: str


def opens_call(piece: str) -> bool:
    """Whether a reply that starts with the token ``piece`` starts a call as :class:`ToolCallParser` reads one: a tag,
    a fence or a bare JSON object, or the start of a tag or fence."""
    lead = piece.lstrip()
    openings = (*START_TAGS, FENCE)
    return bool(lead) and (lead.startswith((*openings, "{")) or any(opening.startswith(lead) for opening in openings))


def call_opening_ids(tokenizer, pieces: list[str]) -> tuple[int, ...]:
    """The token ids that open a call: of ``pieces`` (each token's text) and of the tokenizer's own added tokens
    (``<tool_call>`` is one in Qwen2.5's)."""
    added = {token_id for text, token_id in tokenizer.get_added_vocab().items() if opens_call(text)}
    return tuple(sorted(added | {token_id for token_id, piece in enumerate(pieces) if opens_call(piece)}))


def check_call(call: ToolCall, tools: list[dict]) -> str | None:
    """Why ``call`` does not fit the declared ``tools`` (Realtime shape), or None when it does."""
    declared = {tool["name"]: tool for tool in tools}
    if call.name not in declared:
        return f"the model called {call.name!r}, which is not a declared tool"
    schema = declared[call.name].get("parameters") or {"type": "object"}
    arguments = json.loads(call.arguments)
    if _echoes_schema(arguments, schema):
        return f"the model wrote the parameter schema of {call.name!r} as its arguments"
    try:
        jsonschema.validate(arguments, schema)
    except jsonschema.ValidationError as exc:
        return f"arguments of {call.name!r} do not match its schema: {exc.message}"
    except jsonschema.SchemaError as exc:
        return f"the declared parameters of {call.name!r} are not a valid JSON schema: {exc.message}"
    return None


def _echoes_schema(arguments: object, schema: dict) -> bool:
    """Arguments that repeat a schema's own words ("type", "properties") where it declares no such parameters: a model
    confused by the request (the page's clock called for the news with ``{"type": "object", "properties": {}}``)."""
    words = {"type", "properties"}
    return isinstance(arguments, dict) and words <= arguments.keys() and not words & (schema.get("properties") or {}).keys()


def _object_end(text: str, start: int) -> int | None:
    """Index just past the JSON object opening at ``text[start]``, or None while it is still open."""
    depth = 0
    in_string = escaped = False
    for i in range(start, len(text)):
        ch = text[i]
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return i + 1
    return None


def _parse_call(raw: str) -> ToolCall | MalformedCall:
    try:
        obj = json.loads(raw)
    except ValueError as exc:
        if raw.startswith("{{") and raw.endswith("}}"):  # Qwen2.5's template shows the call as {{...}}
            return _parse_call(raw[1:-1])
        return MalformedCall(raw, f"not JSON: {exc}")
    if not isinstance(obj, dict) or not isinstance(obj.get("name"), str):
        return MalformedCall(raw, "a call needs a string 'name'")
    arguments = obj.get("arguments", obj.get("parameters", {}))
    if isinstance(arguments, str):  # some models write the arguments as a JSON string
        try:
            arguments = json.loads(arguments)
        except ValueError:
            return MalformedCall(raw, "'arguments' is a string that is not JSON")
    if not isinstance(arguments, dict):
        return MalformedCall(raw, "'arguments' must be an object")
    return ToolCall(obj["name"], json.dumps(arguments, ensure_ascii=False))


class ToolCallParser:
    """Splits a streamed reply into speakable text and calls.

    ``feed`` returns the pieces that are decided: ``str`` for text, :class:`ToolCall` or
    :class:`MalformedCall` for calls; ``finish`` decides whatever is left at the end of the reply.
    """

    def __init__(self) -> None:
        self.buffer = ""
        self.at_start = True  # nothing decided yet: a bare or fenced JSON call may still come
        self.in_fence = False  # the reply is prose in a fence, whose markers go: a speech synthesiser says no code

    def feed(self, text: str) -> list[str | ToolCall | MalformedCall]:
        self.buffer += text
        out: list[str | ToolCall | MalformedCall] = []
        while self.buffer:
            piece = self._next()
            if piece is None:
                break
            if piece != "":
                out.append(piece)
        return out

    def finish(self) -> list[str | ToolCall | MalformedCall]:
        out = self.feed("")
        rest, self.buffer = self.buffer, ""
        stripped = rest.strip()
        if self.at_start and stripped.startswith(FENCE) and "{" not in stripped:  # a short reply in a fence
            rest = self._open_prose_fence(stripped)
        if self.in_fence:
            rest = rest.replace(FENCE, "").rstrip("`")
        elif stripped.startswith((*START_TAGS, FENCE, "{", ANSWER_TAGS[0])):
            out.append(MalformedCall(stripped, "the reply ended inside a call"))
            return out
        if rest:
            out.append(rest)
        return out

    def _next(self) -> str | ToolCall | MalformedCall | None:
        """The next decided piece from the front of the buffer ("" when only whitespace went), or None."""
        lead = self.buffer.lstrip()
        if self.at_start and lead.startswith("}"):  # the doubled braces of Qwen2.5's template, closed late
            self.buffer = lead.lstrip("}")
            return ""
        if not lead:
            return None
        for open_tag, close_tag in START_TAGS.items():
            if lead.startswith(open_tag) and (self.at_start or open_tag == OPEN_TAG):
                end = lead.find(close_tag)
                if end < 0:
                    return None
                self.buffer = lead[end + len(close_tag) :]
                return _parse_call(lead[len(open_tag) : end].strip())  # still at the start: more calls may follow
        if self.at_start and lead.startswith(ANSWER_TAGS[0]):
            end = lead.find(ANSWER_TAGS[1])
            if end < 0:
                return None
            self.buffer = lead[end + len(ANSWER_TAGS[1]) :]
            return MalformedCall(lead[: end + len(ANSWER_TAGS[1])], "the reply repeats a tool's answer")
        if self.at_start and lead.startswith(FENCE):
            body = lead.find("{")
            if body < 0:  # no call: prose in a fence ("```I can't check the time from here.```")
                if len(lead) < 16:
                    return None
                self.buffer = self._open_prose_fence(lead)
                return self._take_text()
            close = lead.find(FENCE, body)
            if close < 0:
                return None
            self.buffer = lead[close + len(FENCE) :]
            return self._bare_call(lead[body:close].strip())
        if self.at_start and lead.startswith("{"):
            end = _object_end(lead, 0)
            if end is None:
                return None
            self.buffer = lead[end:]
            return self._bare_call(lead[:end])
        if self.at_start and any(marker.startswith(lead) for marker in (*START_TAGS, FENCE, ANSWER_TAGS[0])):
            return None  # the opening of a tag or fence, not whole yet
        return self._take_text()

    def _open_prose_fence(self, lead: str) -> str:
        """A reply that opens a fence holding no call is prose: what follows the fence's opening; its closing goes too."""
        self.in_fence = True
        return lead[OPENING_FENCE.match(lead).end() :]

    def _bare_call(self, raw: str) -> str | ToolCall | MalformedCall:
        """A JSON object at the start of the reply: a call when it looks like one, else plain text."""
        call = _parse_call(raw)
        if isinstance(call, MalformedCall) and '"name"' not in raw:
            self.at_start = False
            return raw
        return call  # still at the start: several bare calls may follow one another

    def _take_text(self) -> str | None:
        """Text up to a possible ``<tool_call>``; a trailing part that could still become the tag stays."""
        self.at_start = False
        if self.in_fence:
            self.buffer = self.buffer.replace(FENCE, "")  # its closing fence
        tag = self.buffer.find(OPEN_TAG)
        if tag > 0:
            text, self.buffer = self.buffer[:tag], self.buffer[tag:]
            return text
        if tag == 0:
            return ""
        hold = next((k for k in range(min(len(OPEN_TAG) - 1, len(self.buffer)), 0, -1)
                     if OPEN_TAG.startswith(self.buffer[-k:])), 0)
        if self.in_fence:  # one or two backticks may still become the closing fence
            hold = max(hold, len(self.buffer) - len(self.buffer.rstrip("`")))
        text = self.buffer[: len(self.buffer) - hold]
        self.buffer = self.buffer[len(text) :]
        return text or None


class StructuredCalls:
    """Streamed chat-completions ``tool_calls`` pieces (from a server that parses calls itself, as vLLM does
    with a tool parser) written back as the model's own call text, so one parser reads every backend."""

    def __init__(self) -> None:
        self.open_index: int | None = None
        self.wrote_arguments = False

    def feed(self, pieces: list[dict]) -> str:
        out = ""
        for piece in pieces:
            function = piece.get("function") or {}
            if piece.get("index", 0) != self.open_index:
                out += self.close()
                self.open_index = piece.get("index", 0)
                out += f'{OPEN_TAG}\n{{"name": {json.dumps(function.get("name") or "")}, "arguments": '
            arguments = function.get("arguments") or ""
            self.wrote_arguments = self.wrote_arguments or bool(arguments)
            out += arguments
        return out

    def close(self) -> str:
        """The end of the open call, if one is open."""
        if self.open_index is None:
            return ""
        out = ("" if self.wrote_arguments else "{}") + f"}}\n{CLOSE_TAG}"
        self.open_index, self.wrote_arguments = None, False
        return out
