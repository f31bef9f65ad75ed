"""Every server event checked against the pinned ``openai`` SDK's server-event union, strictly (the
way an SDK-typed client reads them); the end-to-end and unit tests of the protocol use it."""

from __future__ import annotations

from typing import Any

from openai.types.realtime import RealtimeServerEvent
from pydantic import TypeAdapter, ValidationError

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
