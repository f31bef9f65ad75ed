"""``bench load``: server_busy counted apart from errors, resumes judged by their replayed history,
/healthz timed, and ``--abuse`` against the real server (credential resumes, a history at its quota)."""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from threading import Thread

import pytest

from app.bench import load
from app.bench.client import RealtimeClient, ReplyRecord, ServerProbe
from app.bench.load import Phase, UserResult, resume_outcome, stored_item_ids, summarize_users, turn_outcome
from app.bench.load_abuse import HealthzPoller, filler_text
from app.config import Settings
from app.web.server import ServerThread, create_app

BUSY_ERROR = {"type": "error", "error": {"type": "server_error", "code": "server_busy", "message": "busy"}}


def _reply(status: str, *, error_code: str | None = None, text: str = "", audio: bytes = b"") -> ReplyRecord:
    details = {"type": status, "error": {"code": error_code, "message": "x"}} if error_code else None
    record = ReplyRecord("resp_1", 0.0, text=text, audio=bytearray(audio))
    record.done = {"id": "resp_1", "status": status, "status_details": details}
    return record


def _item_done(item_id: str) -> dict:
    return {"type": "conversation.item.done", "item": {"id": item_id, "type": "message"}}


def test_a_server_busy_answer_is_counted_apart_from_errors() -> None:
    errors, busy = turn_outcome("voice", [BUSY_ERROR], _reply("failed", error_code="server_busy"), answered=False)
    assert (errors, busy) == ([], True)
    # the reply's own failure names server_busy even when its error event was not seen
    assert turn_outcome("text", [], _reply("failed", error_code="server_busy"), answered=False) == ([], True)


def test_other_failures_are_errors() -> None:
    failed = [{"type": "error", "error": {"code": "stage_failed"}}]
    errors, busy = turn_outcome("text", failed, _reply("failed", error_code="stage_failed"), answered=False)
    assert not busy and errors == ["text: stage_failed", "text: reply failed with 0 audio bytes, 0 text chars"]
    errors, busy = turn_outcome("voice", [], _reply("completed", text="Hi."), answered=False)
    assert not busy and errors == ["voice: reply completed with 0 audio bytes, 3 text chars"]
    assert turn_outcome("voice", [], _reply("incomplete", audio=b"\0\0"), answered=True) == ([], False)


def test_turns_and_server_busy_share_per_phase() -> None:
    result = UserResult("text")
    assert load._count_turn(result, [], _reply("completed", text="Paris."), answered=True)
    assert not load._count_turn(result, [BUSY_ERROR], _reply("failed", error_code="server_busy"), answered=False)
    assert not load._count_turn(result, [], _reply("cancelled"), answered=False)
    result.text_ttft_s.append(0.5)
    assert (result.turns, result.server_busy, len(result.errors)) == (3, 1, 1)
    phase = Phase([result, UserResult("voice")], healthz_ms=[float(v) for v in range(1, 101)], healthz_failures=0)
    summary = summarize_users(phase)
    assert summary["turns"] == 3 and summary["server_busy"] == 1 and summary["server_busy_share"] == 0.3333
    assert summary["errors"] == 1 and summary["text_turns"] == 1
    assert summary["healthz_p50_ms"] == 50.5 and summary["healthz_p99_ms"] == 99.01 and summary["healthz_max_ms"] == 100.0


def test_interruptions_are_counted_by_kind_and_timed_where_they_stopped_a_reply() -> None:
    voice, typed = UserResult("voice", interrupts=3, interrupts_late=1), UserResult("text", interrupts=2)
    voice.stop_s += [0.3, 0.5]
    typed.stop_s += [0.002, 0.004]
    summary = summarize_users(Phase([voice, typed], healthz_ms=[], healthz_failures=0))
    assert (summary["barge_ins"], summary["barge_ins_late"], summary["barge_in_stop_p50_s"]) == (3, 1, 0.4)
    assert (summary["cancels"], summary["cancels_late"], summary["cancel_stop_p95_s"]) == (2, 0, 0.004)


def test_a_resume_counts_when_the_earlier_items_come_back() -> None:
    known = {"item_a", "item_b"}
    replayed = [_item_done("item_a"), _item_done("item_b"), _item_done("item_new")]
    assert stored_item_ids(replayed) == {"item_a", "item_b", "item_new"}
    assert stored_item_ids([*replayed, {"type": "conversation.item.deleted", "item_id": "item_new"}]) == known
    assert resume_outcome(known, "sess_1", replayed, {"id": "sess_1"}) == (True, 0)
    assert resume_outcome(known, "sess_1", replayed[1:], {"id": "sess_1"}) == (True, 1)
    # a fresh session (the credential was not honoured) gets nothing back
    assert resume_outcome(known, "sess_1", [_item_done("item_new")], {"id": "sess_2"}) == (False, 2)
    assert resume_outcome(known, "sess_1", replayed, {"id": "sess_2"}) == (False, 0)


def test_filler_text_is_exactly_as_long_as_asked() -> None:
    assert len(filler_text(4000)) == 4000 and len(filler_text(10, "7: ")) == 10
    assert filler_text(10, "7: ").startswith("7: ")


class _Healthz(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 (the handler's name is the HTTP method)
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b'{"status":"ok"}')

    def log_message(self, *args: object) -> None:
        pass


def test_the_healthz_poller_times_requests_on_its_own_thread() -> None:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Healthz)
    Thread(target=server.serve_forever, daemon=True).start()
    try:
        probe = ServerProbe(f"http://127.0.0.1:{server.server_address[1]}", "")
        with HealthzPoller(probe) as poller:
            time.sleep(0.3)
        assert len(poller.latencies_ms) >= 2 and poller.failures == 0
        assert all(latency > 0 for latency in poller.latencies_ms)
    finally:
        server.shutdown()


# ---------------------------------------------------------------- against the real server


@pytest.fixture(scope="module")
def small_quota(settings: Settings, prepared, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Settings]]:
    """A real server whose limits the abusive client reaches within seconds."""
    own = settings.model_copy(update={"data_dir": tmp_path_factory.mktemp("load"), "max_text_chars": 600,
                                      "history_session_max_messages": 80, "max_new_tokens": 40})  # fmt: skip
    with ServerThread(create_app(own, prepared=prepared)) as base_url:
        yield base_url.replace("http://", "ws://") + "/ws", own


async def test_a_credential_resumes_the_conversation_with_its_history(small_quota: tuple[str, Settings]) -> None:
    url, _ = small_quota
    session = ServerProbe.for_ws_url(url).session_credential()
    headers = {session["header"]: session["credential"]}
    async with RealtimeClient(url, headers=headers) as first:
        assert first.session["id"] == session["id"]
        await first.say_text("Say hello.")
        assert (await first.next_reply(timeout=180)).status in ("completed", "incomplete")
        known = stored_item_ids(first.events)
    assert len(known) == 2  # the question and the reply
    async with RealtimeClient(url, headers=headers) as again:
        await again.send({"type": "session.update", "session": {"output_modalities": ["text"]}})
        await again.wait_for("session.updated")  # after the replay (it comes before any live event)
        assert resume_outcome(known, session["id"], again.events, again.session) == (True, 0)
    async with RealtimeClient(url) as stranger:  # no credential: a fresh conversation
        await stranger.send({"type": "session.update", "session": {"output_modalities": ["text"]}})
        await stranger.wait_for("session.updated")
        assert resume_outcome(known, session["id"], stranger.events, stranger.session) == (False, 2)


def test_load_with_abuse_resumes_with_credentials_and_times_healthz(small_quota: tuple[str, Settings], tmp_path) -> None:
    url, own = small_quota
    parser = argparse.ArgumentParser()
    load.add_arguments(parser)
    args = parser.parse_args(["--url", url, "--sessions", "2", "--minutes", "0.25", "--abuse"])
    args.json_path = str(tmp_path / "load.json")
    result = load.run(args, own)
    assert result["errors"] == 0 and result["abuse_errors"] == 0
    assert result["resumes_with_history"] == result["resumes"] and result["resumed_items_missing"] == 0
    assert result["healthz_polls"] > 10 and result["abuse_healthz_polls"] > 10 and result["healthz_failures"] == 0
    assert result["healthz_p99_ms"] is not None and result["abuse_healthz_p99_ms"] is not None
    # the abusive client filled its history to the quota (less the room for its turns) with maximal
    # messages, resumed with its credential and got all of them back
    assert result["abuse_instructions_chars"] == 600
    assert result["abuse_messages_stored"] >= 80 - 64 and result["abuse_history_chars"] == 600 * result["abuse_messages_stored"]
    assert result["abuse_visits"] >= 2 and result["abuse_items_replayed_max"] >= 80 - 64
    assert result["abuse_replies"] and "failed" not in result["abuse_replies"], result["abuse_replies"]
    assert result["kv_leaked_blocks"] == 0 and result["engine_requests_left"] == 0 and result["sessions_left"] == 0
    assert json.loads((tmp_path / "load.json").read_text())["abuse_healthz_p99_ms"] == result["abuse_healthz_p99_ms"]
