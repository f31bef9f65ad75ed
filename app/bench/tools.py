"""``voicechat bench tools``: does the assistant call the right tool, with the right arguments, only when needed?

Each request of ``app/bench/tool_requests.py`` runs in a fresh conversation over the WebSocket
protocol with the four tools declared (``tool_choice: auto``), typed, text out, through the server's
own prompt building and sampling. A tool request is right when the first call names the expected tool,
its arguments fit the declared schema, and the expected values are in them; the bench then answers
as the client's tool would (``function_call_output``) and asks for the answer, which must come as
text with no further call (and, for the weather, carry the reported temperature).

Figures, per model: tools_correct (share of tool requests right), tools_false_calls (share of no-tool
requests answered with a call), tools_missed (tool requests answered without a call),
tools_followup_ok (share of right calls whose answer from the tool's output is good), tools_declined (share
of the requests no declared tool meets, "Call a taxi for me.", answered without a call by saying it cannot),
tools_errors, and tools_wrong: every miss with its request, calls and reply.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from dataclasses import dataclass, field
from typing import Any

from app.bench.quality import (add_server_arguments, answer_calls, calls_after, each_in_turn, errors_after, matches,
                               own_server, report_models)
from app.bench.quality_questions import DECLINES
from app.bench.tool_requests import BEYOND_TOOLS, REQUESTS, TOOL_OUTPUTS, TOOLS
from app.config import Settings
from app.engine.tool_calls import ToolCall, check_call

TURN_TIMEOUT_S = 180.0


@dataclass
class Outcome:
    request: str
    tool: str | None
    expected: dict[str, int | str]
    calls: list[ToolCall] = field(default_factory=list)
    reply: str = ""
    followup: str = ""
    error: str | None = None
    correct: bool = False
    followup_ok: bool = False
    beyond_tools: bool = False  # no declared tool meets it: right when it says it cannot, without a call


def call_is_right(call: ToolCall, tool: str, expected: dict[str, int | str]) -> bool:
    """The expected tool, arguments that fit its schema, and the expected values in them."""
    if call.name != tool or check_call(call, TOOLS) is not None:
        return False
    arguments = json.loads(call.arguments)
    for name, want in expected.items():
        got = arguments.get(name)
        if isinstance(want, int) and got != want:
            return False
        if isinstance(want, str) and (not isinstance(got, str) or want not in got.lower()):
            return False
    return True


async def _run_one(url: str, server: dict[str, Any], request: str, tool: str | None, expected: dict,
                   beyond_tools: bool = False) -> Outcome:  # fmt: skip
    from app.bench.client import RealtimeClient

    outcome = Outcome(request, tool, expected, beyond_tools=beyond_tools)
    try:
        async with RealtimeClient(url) as client:
            server.setdefault("session", client.session)
            seen = len(client.events)
            await client.send({"type": "session.update",
                               "session": {"output_modalities": ["text"], "tools": TOOLS, "tool_choice": "auto"}})
            await client.wait_for("session.updated", after=seen)
            seen = len(client.events)
            await client.say_text(request)
            reply = await client.next_reply(after=seen, timeout=TURN_TIMEOUT_S)
            outcome.reply, outcome.calls = reply.text.strip(), calls_after(client.events, seen)
            errors = errors_after(client.events, seen)
            if errors:
                outcome.error = f"error events: {', '.join(errors)}"
            if tool is None or not outcome.calls or outcome.error:
                outcome.correct = tool is None and not outcome.calls and outcome.error is None
                outcome.correct &= not beyond_tools or matches(outcome.reply, DECLINES)
                return outcome
            outcome.correct = call_is_right(outcome.calls[0], tool, expected)
            seen = len(client.events)
            await answer_calls(client, outcome.calls)
            answer = await client.next_reply(after=seen, timeout=TURN_TIMEOUT_S)
            outcome.followup = answer.text.strip()
            word = TOOL_OUTPUTS[tool][1]
            outcome.followup_ok = (
                bool(outcome.followup)
                and not calls_after(client.events, seen)
                and not errors_after(client.events, seen)
                and (word is None or matches(outcome.followup, [word]))
            )
    except (TimeoutError, ConnectionError, OSError) as error:
        outcome.error = f"{type(error).__name__}: {error}"
    return outcome


def all_requests() -> list[tuple[str, str | None, dict, bool]]:
    """(request, tool, expected arguments, beyond the tools) of every request."""
    return [(*entry, False) for entry in REQUESTS] + [(request, None, {}, True) for request in BEYOND_TOOLS]


async def run_all(url: str, concurrency: int, label: str = "",
                  requests: list | None = None) -> tuple[list[Outcome], dict[str, Any]]:  # fmt: skip
    """Every request (``all_requests`` unless given) in its own conversation, ``concurrency`` at once; progress on
    stderr."""
    server: dict[str, Any] = {}
    outcomes = await each_in_turn(lambda entry: _run_one(url, server, *entry), requests or all_requests(), concurrency,
                                  f"tools{label}", "requests")  # fmt: skip
    return outcomes, server


def summarize(outcomes: list[Outcome]) -> dict[str, Any]:
    needing = [o for o in outcomes if o.tool is not None]
    not_needing = [o for o in outcomes if o.tool is None and not o.beyond_tools]
    beyond = [o for o in outcomes if o.beyond_tools]
    right = [o for o in needing if o.correct]

    def share(count: int, total: int) -> float | None:
        return round(count / total, 4) if total else None

    return {
        "tools_correct": share(len(right), len(needing)),
        "tools_false_calls": share(sum(bool(o.calls) for o in not_needing), len(not_needing)),
        "tools_missed": sum(not o.calls for o in needing),
        "tools_followup_ok": share(sum(o.followup_ok for o in right), len(right)),
        "tools_declined": share(sum(o.correct for o in beyond), len(beyond)),
        "tools_errors": sum(o.error is not None for o in outcomes),
        "tools_wrong": [_wrong(o) for o in outcomes if not o.correct or (o.correct and o.tool and not o.followup_ok)],
    }


def _wrong(outcome: Outcome) -> dict[str, Any]:
    calls = "; ".join(f"{c.name}({c.arguments})" for c in outcome.calls) or "no call"
    entry = {
        "id": outcome.request,
        "reply": f"{calls} | {outcome.reply}" + (f" | then: {outcome.followup}" if outcome.followup else ""),
        "expected": f"{outcome.tool}({json.dumps(outcome.expected)})" if outcome.tool else
                    "no call, saying it cannot" if outcome.beyond_tools else "no call",
    }
    if outcome.error:
        entry["error"] = outcome.error
    return entry


add_arguments = add_server_arguments


def run(args: argparse.Namespace, settings: Settings) -> dict[str, Any]:
    results: dict[str, dict[str, Any]] = {}
    if args.url:
        started = time.perf_counter()
        outcomes, server = asyncio.run(run_all(args.url, args.concurrency))
        name = server.get("session", {}).get("model") or "server"
        results[name] = {**summarize(outcomes), "tools_elapsed_s": round(time.perf_counter() - started, 1)}
        where = args.url.split("?", 1)[0]
    else:
        for model in args.llm_models or [settings.llm_model]:
            with own_server(settings, model, args.concurrency) as url:
                started = time.perf_counter()
                outcomes, _ = asyncio.run(run_all(url, args.concurrency, f" {model}"))
                results[model] = {**summarize(outcomes), "tools_elapsed_s": round(time.perf_counter() - started, 1)}
        where = "own (127.0.0.1, free port), one per model"
    shared = {
        "tools_requests": len(all_requests()),
        "tools_needing_a_tool": sum(tool is not None for _, tool, _ in REQUESTS),
        "tools_declared": ",".join(t["name"] for t in TOOLS),
        "tools_concurrency": args.concurrency,
        "server": where,
    }
    return report_models("tool calling: fresh typed conversations with four declared tools", results, shared,
                         args.json_path, prefix="tools")  # fmt: skip
