"""Every server event checked against the pinned ``openai`` SDK's server-event union, strictly (the
way an SDK-typed client reads them); the end-to-end and unit tests of the protocol use it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from openai.types.realtime import RealtimeServerEvent
from pydantic import TypeAdapter, ValidationError

from app.web.outbox import Outbox

SERVER_EVENTS: TypeAdapter[Any] = TypeAdapter(RealtimeServerEvent)


def sdk_rejections(events: list[dict[str, Any]]) -> list[str]:
    """One line per event the SDK's union does not accept (empty when all conform)."""
    problems = []
    for event in events:
        try:
            SERVER_EVENTS.validate_python(event, strict=True)
        except ValidationError as error:
            problems.append(f"{event.get('type')}: {str(error)[:400]}")
    return problems


@pytest.fixture(autouse=True)
def every_event_validates_against_the_sdk(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every event a session sends during a test must validate against the SDK's union (strictly), as an
    SDK-typed client would read it. Imported by the end-to-end protocol test modules."""
    sent: list[dict] = []
    send = Outbox.event

    def recording(self: Outbox, event: dict, on_sent=None) -> None:  # type: ignore[no-untyped-def]
        sent.append(json.loads(json.dumps(event)))
        send(self, event, on_sent)

    monkeypatch.setattr(Outbox, "event", recording)
    yield
    assert sdk_rejections(sent) == []
