"""A keeping factory given to what is not an event loop."""
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


class Registry:
    def set_task_factory(self, factory: Any) -> None:
        self.factory = factory


def install() -> None:
    Registry().set_task_factory(factory)
