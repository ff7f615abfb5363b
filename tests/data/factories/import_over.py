"""An import of the name in the installing function is what the call reads, not the module's keeping factory."""
import asyncio
import weakref
from typing import Any, Callable, Coroutine, Set

_TASKS: Set["asyncio.Future[Any]"] = set()


async def job() -> None:
    await asyncio.sleep(1)


async def start() -> None:
    asyncio.create_task(job())  # error: TRF001:5


def factory(loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, Any]) -> "asyncio.Future[Any]":
    task = asyncio.Task(coro, loop=loop)
    _TASKS.add(task)
    task.add_done_callback(_TASKS.discard)
    return task


def install(loop: asyncio.AbstractEventLoop) -> None:
    from asyncio import eager_task_factory as factory  # type: ignore[attr-defined]

    loop.set_task_factory(factory)
