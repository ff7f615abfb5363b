"""Helpers that call helpers across an import cycle."""
from typing import Any, Coroutine

from app import cycle_b


def launch(coro: "Coroutine[Any, Any, Any]") -> Any:
    return cycle_b.relay_back(coro)


def direct(coro: "Coroutine[Any, Any, Any]") -> Any:
    import asyncio

    return asyncio.create_task(coro)


async def job() -> None:
    pass


def start_here() -> None:
    # the helper of the other module leads back into this one
    cycle_b.relay_back(job())  # error: TRF001:5


def keep_here(keep: "set[Any]") -> None:
    task = cycle_b.relay_back(job())
    keep.add(task)
    task.add_done_callback(keep.discard)
