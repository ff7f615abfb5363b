"""A keeping factory installed on an attribute that a method naming no spawner makes an event loop: silent on both paths."""
import asyncio
import weakref
from typing import Any, Callable, Coroutine, Set

_TASKS: Set["asyncio.Future[Any]"] = set()


async def job() -> None:
    await asyncio.sleep(1)


async def start() -> None:
    asyncio.create_task(job())


def factory(loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, Any]) -> "asyncio.Future[Any]":
    task = asyncio.Task(coro, loop=loop)
    _TASKS.add(task)
    task.add_done_callback(_TASKS.discard)
    return task


class Service:
    def __init__(self) -> None:
        self.ev = asyncio.new_event_loop()

    def install(self) -> None:
        self.ev.set_task_factory(factory)  # type: ignore[arg-type]
