"""bench tools: its request set, its scoring, and a short run through the real server."""

from __future__ import annotations

import asyncio

from app.bench.quality import matches
from app.bench.quality_questions import DECLINES
from app.bench.tool_requests import BEYOND_TOOLS, REQUESTS, TOOL_OUTPUTS, TOOLS, tool_output
from app.bench.tools import Outcome, all_requests, call_is_right, run_all, summarize
from app.engine.tool_calls import ToolCall
from app.web.realtime.function_calls import checked_tools


def test_the_set_is_half_tool_requests_over_declared_valid_tools():
    assert len(REQUESTS) >= 40
    needing = [tool for _, tool, _ in REQUESTS if tool]
    assert abs(len(needing) - (len(REQUESTS) - len(needing))) <= 1
    assert set(needing) <= {t["name"] for t in TOOLS} == set(TOOL_OUTPUTS)
    assert 3 <= len(checked_tools(TOOLS, "tools")) <= 5  # the server accepts them as declared
    assert len(BEYOND_TOOLS) >= 8 and not set(BEYOND_TOOLS) & {request for request, _, _ in REQUESTS}
    assert len(all_requests()) == len(REQUESTS) + len(BEYOND_TOOLS)


def test_a_call_is_right_with_the_tool_valid_arguments_and_the_expected_values():
    assert call_is_right(ToolCall("set_timer", '{"seconds": 120, "label": "tea"}'), "set_timer", {"seconds": 120})
    assert not call_is_right(ToolCall("set_timer", '{"seconds": 60}'), "set_timer", {"seconds": 120})
    assert not call_is_right(ToolCall("set_timer", '{"seconds": "120"}'), "set_timer", {"seconds": 120})  # schema
    assert call_is_right(ToolCall("get_weather", '{"city": "Paris, France"}'), "get_weather", {"city": "paris"})
    assert not call_is_right(ToolCall("get_current_time", "{}"), "get_weather", {"city": "paris"})


def test_the_bench_client_answers_a_call_as_the_page_does():
    assert tool_output("set_timer", '{"seconds": 300, "label": "pasta"}') == '{"status": "started", "seconds": 300}'
    assert tool_output("set_timer", "not json") == TOOL_OUTPUTS["set_timer"][0]
    assert tool_output("get_current_time", "{}") == TOOL_OUTPUTS["get_current_time"][0]
    assert tool_output("play_music", "{}") == '{"error": "unknown tool"}'


def test_the_figures_count_right_calls_false_calls_misses_and_declines():
    timer = ToolCall("set_timer", '{"seconds": 10}')
    outcomes = [
        Outcome("Ten second timer", "set_timer", {"seconds": 10}, [timer], correct=True, followup_ok=True),
        Outcome("Weather in Rome?", "get_weather", {"city": "rome"}),
        Outcome("Capital of Italy?", None, {}, [timer]),
        Outcome("Hello", None, {}, correct=True),
        Outcome("Call a taxi", None, {}, [timer], beyond_tools=True),
        Outcome("Play jazz", None, {}, reply="I can't play music.", correct=True, beyond_tools=True),
    ]
    figures = summarize(outcomes)
    assert (figures["tools_correct"], figures["tools_false_calls"], figures["tools_missed"]) == (0.5, 0.5, 1)
    assert figures["tools_followup_ok"] == 1.0 and figures["tools_declined"] == 0.5
    assert [w["id"] for w in figures["tools_wrong"]] == ["Weather in Rome?", "Capital of Italy?", "Call a taxi"]
    assert figures["tools_wrong"][-1]["expected"] == "no call, saying it cannot"


def test_a_request_beyond_the_tools_is_declined_by_the_served_model(tools_server_url):
    """The 1.5B calls an undeclared ``play_music`` here; the server answers again without tools, and the reply says
    it cannot (before: an ``invalid_tool_call`` error and nothing said)."""
    url = tools_server_url.replace("http://", "ws://") + "/ws"
    (outcome,), _ = asyncio.run(run_all(url, 1, requests=[("Play some jazz music.", None, {}, True)]))
    assert outcome.error is None and outcome.beyond_tools and not outcome.calls
    assert outcome.correct and matches(outcome.reply, DECLINES), outcome.reply


def test_a_short_run_through_the_server_scores_a_call_and_a_plain_answer(tools_server_url):
    picked = [r for r in REQUESTS if r[0] in ("Set a timer for two minutes.", "What is the capital of Italy?")]
    outcomes, server = asyncio.run(run_all(tools_server_url.replace("http://", "ws://") + "/ws", 2, requests=picked))
    assert server["session"]["model"] == "qwen2.5-1.5b"
    assert all(o.error is None for o in outcomes), [o.error for o in outcomes]
    figures = summarize(outcomes)
    assert figures["tools_correct"] == 1.0 and figures["tools_false_calls"] == 0.0 and figures["tools_followup_ok"] == 1.0
