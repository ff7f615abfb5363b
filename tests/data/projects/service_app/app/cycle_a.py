"""Helpers that call helpers across an import cycle."""
from typing import Any, Coroutine

from app import cycle_b


def launch(coro: "Coroutine[Any, Any, Any]") -> Any:
    return cycle_b.relay_back(coro)


def direct(coro: "Coroutine[Any, Any, Any]") -> Any:
    import asyncio

    return asyncio.create_task(coro)
