"""A factory that returns another task than the one it kept."""
import asyncio
import weakref
from typing import Any, Callable, Coroutine, Set

_TASKS: Set["asyncio.Future[Any]"] = set()


async def job() -> None:
    await asyncio.sleep(1)


async def start() -> None:
    asyncio.create_task(job())  # error: TRF001:5


def factory(loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, Any]) -> "asyncio.Future[Any]":
    task = asyncio.Task(job(), loop=loop)
    _TASKS.add(task)
    task = asyncio.Task(coro, loop=loop)
    return task


def install(loop: asyncio.AbstractEventLoop) -> None:
    loop.set_task_factory(factory)  # type: ignore[arg-type]
