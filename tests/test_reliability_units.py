"""Limits, access rules and log redaction on their own (no server): exact behaviour at the edges."""

from __future__ import annotations

import asyncio
import logging

import pytest

from app.config import Settings
from app.web.limits import AccessPolicy, AudioBudget, SessionLimits, TokenBucket
from app.web.security import RedactingFilter, redact
from app.web.outbox import Outbox


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_token_bucket_allows_a_burst_then_the_rate():
    clock = Clock()
    bucket = TokenBucket(rate=10, burst=10, clock=clock)
    assert sum(bucket.allow() for _ in range(25)) == 10
    clock.now += 0.5
    assert sum(bucket.allow() for _ in range(25)) == 5
    clock.now += 100
    assert sum(bucket.allow() for _ in range(25)) == 10  # never more than the burst


def test_audio_budget_is_a_sliding_minute():
    clock = Clock()
    budget = AudioBudget(seconds_per_min=90, clock=clock)
    for _ in range(90):
        assert budget.allow(1.0)
        clock.now += 0.1  # ten times faster than real time
    assert not budget.allow(1.0)
    clock.now += 51.0  # the first seconds leave the window
    assert budget.allow(1.0)


def test_session_limits_idle_clock_and_error_throttle():
    clock = Clock()
    limits = SessionLimits(Settings(idle_timeout_s=30, max_messages_per_s=2), clock=clock)
    assert limits.idle_left_s() == 30
    clock.now += 20
    assert limits.idle_left_s() == 10
    assert limits.admit_message() and limits.admit_message() and not limits.admit_message()
    assert limits.idle_left_s() == 30  # any frame counts as activity, even one over the rate
    assert limits.should_report("rate_limit_exceeded") and not limits.should_report("rate_limit_exceeded")
    assert limits.should_report("audio_rate_exceeded")
    clock.now += 1.0
    assert limits.should_report("rate_limit_exceeded")
    assert SessionLimits(Settings(idle_timeout_s=0)).idle_left_s() is None


@pytest.mark.parametrize(
    ("origin", "host", "allowed"),
    [
        (None, "127.0.0.1:8000", True),  # not a browser
        ("http://127.0.0.1:8000", "127.0.0.1:8000", True),  # same origin
        ("https://chat.example.org", "127.0.0.1:8000", True),  # listed
        ("https://chat.example.org/", "127.0.0.1:8000", True),
        ("https://evil.example", "127.0.0.1:8000", False),
        ("http://127.0.0.1:8001", "127.0.0.1:8000", False),  # another port is another origin
        ("null", "127.0.0.1:8000", False),  # sandboxed frames and file:// pages
    ],
)
def test_origin_allow_list(origin, host, allowed):
    policy = AccessPolicy(Settings(allowed_origins="https://chat.example.org, https://other.example"))
    assert policy.origin_allowed(origin, host) is allowed
    assert AccessPolicy(Settings(allowed_origins="*")).origin_allowed(origin, host)


def test_origin_behind_a_proxy_matches_the_forwarded_host():
    policy = AccessPolicy(Settings())
    assert policy.origin_allowed("https://demo.example.org", "127.0.0.1:8000", "demo.example.org")
    assert not policy.origin_allowed("https://evil.example", "127.0.0.1:8000", "demo.example.org")
    assert not policy.origin_allowed("null", "127.0.0.1:8000", None)


def test_access_token_from_query_bearer_header_or_cookie():
    policy = AccessPolicy(Settings(access_token="s3cret"))
    assert policy.token_ok({"token": "s3cret"}, {}, {})
    assert policy.token_ok({}, {"authorization": "Bearer s3cret"}, {})
    assert policy.token_ok({}, {}, {"voicechat_token": "s3cret"})
    assert not policy.token_ok({}, {}, {})
    assert not policy.token_ok({"token": "s3cre"}, {"authorization": "Bearer wrong"}, {"voicechat_token": ""})
    denial = policy.check_websocket({}, {"host": "h:1"}, {})
    assert denial is not None and denial.code == "unauthorized"
    assert AccessPolicy(Settings()).token_ok({}, {}, {})  # no token configured: open


def test_logs_never_carry_a_token_or_a_whole_session_id():
    line = '127.0.0.1:5 - "WebSocket /ws?session=sess_0123456789abcdef&token=s3cret" [accepted]'
    assert redact(line) == '127.0.0.1:5 - "WebSocket /ws?session=sess_012...&token=***" [accepted]'
    record = logging.LogRecord("uvicorn.error", logging.INFO, "", 0, '%s - "WebSocket %s"', ("1.2.3.4:5", "/ws?token=abc"), None)
    RedactingFilter().filter(record)
    assert record.getMessage() == '1.2.3.4:5 - "WebSocket /ws?token=***"'


def test_outbox_overflows_on_bytes_before_frames():
    async def scenario() -> None:
        outbox = Outbox(limit=100, max_bytes=1000)
        outbox.audio(b"\x00" * 600)
        assert not outbox.overflowed.is_set()
        outbox.audio(b"\x00" * 600)
        assert outbox.overflowed.is_set()
        sent: list[bytes] = []

        async def send_bytes(frame: bytes) -> None:
            sent.append(frame)

        outbox.close()
        await outbox.pump(send_text=lambda _: asyncio.sleep(0), send_bytes=send_bytes)
        assert [len(f) for f in sent] == [600] and outbox.queued_bytes == 0

    asyncio.run(scenario())
