"""A decorated factory: the decorator may replace it."""
import asyncio
import weakref
from typing import Any, Callable, Coroutine, Set

_TASKS: Set["asyncio.Future[Any]"] = set()


async def job() -> None:
    await asyncio.sleep(1)


async def start() -> None:
    asyncio.create_task(job())  # error: TRF001:5


def traced(f: Any) -> Any:
    return lambda loop, coro: asyncio.Task(coro, loop=loop)


@traced
def factory(loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, Any]) -> "asyncio.Future[Any]":
    task = asyncio.Task(coro, loop=loop)
    _TASKS.add(task)
    return task


def install(loop: asyncio.AbstractEventLoop) -> None:
    loop.set_task_factory(factory)  # type: ignore[arg-type]
