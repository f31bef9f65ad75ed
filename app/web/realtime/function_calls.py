"""Function calling: the tools a client declares, the calls a response makes, and the outputs it sends back.

The client declares tools (session- or response-level ``tools`` and ``tool_choice``); the model writes
its calls in its own format (``app/engine/tool_calls.py`` reads them out of the token stream, so a call
is never spoken or shown); each call becomes a ``function_call`` item of the response with its
``response.function_call_arguments.delta/.done``; the client runs it and answers with a
``function_call_output`` item, and its next ``response.create`` answers from that output.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

import jsonschema

from app.engine.tool_calls import forced_call_prefix, template_tools
from app.web.realtime.wire import ProtocolError

MAX_TOOLS = 32
MAX_DESCRIPTION_CHARS = 1024
MAX_SCHEMA_CHARS = 8192
NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
CHOICES = ("auto", "none", "required")

ToolChoice = str | dict[str, str]  # "auto" | "none" | "required" | {"type": "function", "name": ...}


def checked_tools(tools: list[dict[str, Any]], param: str) -> tuple[dict[str, Any], ...]:
    """Declared tools in the Realtime shape, each checked: a function with a usable name, a description and
    parameters that are a JSON schema of an object. Returned with only the fields the model reads."""
    if len(tools) > MAX_TOOLS:
        raise ProtocolError("invalid_event", f"at most {MAX_TOOLS} tools may be declared", param=param)
    checked: list[dict[str, Any]] = []
    for index, tool in enumerate(tools):
        where = f"{param}.{index}"
        if tool.get("type", "function") != "function":
            raise ProtocolError("invalid_event", "tools must be of type 'function'", param=f"{where}.type")
        name = tool.get("name")
        if not isinstance(name, str) or not NAME.match(name):
            raise ProtocolError("invalid_event", "a tool name is 1-64 letters, digits, '_' or '-'", param=f"{where}.name")
        if any(t["name"] == name for t in checked):
            raise ProtocolError("invalid_event", f"tool {name!r} is declared twice", param=f"{where}.name")
        description = tool.get("description", "")
        if not isinstance(description, str) or len(description) > MAX_DESCRIPTION_CHARS:
            raise ProtocolError("invalid_event", f"a tool description is a string of at most {MAX_DESCRIPTION_CHARS} "
                                "characters", param=f"{where}.description")  # fmt: skip
        parameters = tool.get("parameters") or {"type": "object", "properties": {}}
        if not isinstance(parameters, dict) or len(json.dumps(parameters)) > MAX_SCHEMA_CHARS:
            raise ProtocolError("invalid_event", f"parameters must be a JSON schema object of at most {MAX_SCHEMA_CHARS} "
                                "characters", param=f"{where}.parameters")  # fmt: skip
        try:
            jsonschema.Draft202012Validator.check_schema(parameters)
        except jsonschema.SchemaError as error:
            raise ProtocolError("invalid_event", f"parameters is not a valid JSON schema: {error.message}",
                                param=f"{where}.parameters") from None  # fmt: skip
        checked.append({"type": "function", "name": name, "description": description, "parameters": parameters})
    return tuple(checked)


def checked_tool_choice(choice: ToolChoice, tools: tuple[dict[str, Any], ...], param: str) -> ToolChoice:
    if isinstance(choice, str):
        if choice not in CHOICES:
            raise ProtocolError("invalid_event", "tool_choice must be 'auto', 'none', 'required' or a function",
                                param=param)  # fmt: skip
        return choice
    name = choice.get("name")
    if choice.get("type") != "function" or not isinstance(name, str):
        raise ProtocolError("invalid_event", "a named tool_choice is {'type': 'function', 'name': ...}", param=param)
    if not any(t["name"] == name for t in tools):
        raise ProtocolError("invalid_event", f"tool_choice names {name!r}, which is not a declared tool", param=f"{param}.name")
    return {"type": "function", "name": name}


@dataclass(frozen=True)
class ToolUse:
    """The tools one response may call and how (``tool_choice``); no tools when the choice is ``none``."""

    tools: tuple[dict[str, Any], ...] = ()
    choice: ToolChoice = "auto"

    @property
    def active(self) -> bool:
        return bool(self.tools) and self.choice != "none"

    def template_tools(self) -> list[dict[str, Any]] | None:
        return template_tools(list(self.tools)) if self.active else None

    def call_prefix(self) -> str:
        """What the reply starts with when a call is required (see ``forced_call_prefix``)."""
        return forced_call_prefix(self.choice) if self.active else ""


def tools_unsupported(model: str, param: str) -> ProtocolError:
    """The error for tools declared where the model takes none (no tool format, or ``llm_tools``)."""
    return ProtocolError("tools_unsupported", f"the model {model} takes no tools (see llm_tools); {param} must be empty",
                         param=param)


def response_tool_use(tools: tuple[dict[str, Any], ...] | None, choice: ToolChoice | None, config: Any, engine: Any) -> ToolUse:
    """A response's own ``tools`` / ``tool_choice`` where given, else the session's (``config``); tools need an
    ``engine`` whose model takes them."""
    tools = config.tools if tools is None else tools
    if tools and not engine.supports_tools:
        raise tools_unsupported(config.model, "response.tools")
    choice = config.tool_choice if choice is None else choice
    return ToolUse(tools, checked_tool_choice(choice, tools, "response.tool_choice"))
