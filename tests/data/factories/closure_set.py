"""A set of the function around the factory is not the module's: not known to be strong or to live."""
import asyncio
import weakref
from typing import Any, Callable, Coroutine, Set

_TASKS: Set["asyncio.Future[Any]"] = set()


async def job() -> None:
    await asyncio.sleep(1)


async def start() -> None:
    asyncio.create_task(job())  # error: TRF001:5


def install(loop: asyncio.AbstractEventLoop) -> None:
    live: "weakref.WeakSet[asyncio.Future[Any]]" = weakref.WeakSet()

    def factory(loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, Any]) -> "asyncio.Future[Any]":
        task = asyncio.Task(coro, loop=loop)
        live.add(task)
        return task

    loop.set_task_factory(factory)  # type: ignore[arg-type]
