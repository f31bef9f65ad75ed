"""Handing results from worker threads (engine, ASR) to the asyncio code waiting for them."""

from __future__ import annotations

import asyncio


def resolve_from_thread(future: asyncio.Future, value: object) -> bool:
    """Settle ``future`` from another thread: ``value`` is raised there if it is an exception, else
    returned. False when the future's event loop has closed (nobody is waiting any more)."""
    try:
        future.get_loop().call_soon_threadsafe(_settle, future, value)
    except RuntimeError:
        return False
    return True


def _settle(future: asyncio.Future, value: object) -> None:
    if future.done():  # cancelled by its waiter meanwhile
        return
    if isinstance(value, BaseException):
        future.set_exception(value)
    else:
        future.set_result(value)
