import asyncio
import weakref
from typing import Any


class TaskPool:
    def __init__(self) -> None:
        self.tasks: "weakref.WeakSet[Any]" = weakref.WeakSet()

    def spawn(self, task: Any) -> "asyncio.Future[Any]":
        out = asyncio.ensure_future(task)
        self.tasks.add(out)  # (a weak set)
        return out


def ensure(awaitable: Any) -> "asyncio.Future[Any]":
    return asyncio.ensure_future(awaitable)


def ensure_or_none(awaitable: Any) -> "asyncio.Future[Any] | None":
    if awaitable is None:
        return None
    return asyncio.ensure_future(awaitable)


async def ensure_later(awaitable: Any) -> "asyncio.Future[Any]":
    return asyncio.ensure_future(awaitable)
