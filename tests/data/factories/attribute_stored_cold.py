"""A class attribute set also stored through ``self`` in a method that names no spawner: not bound once."""
import asyncio
import weakref
from typing import Any, Callable, Coroutine, Set

_TASKS: Set["asyncio.Future[Any]"] = set()


async def job() -> None:
    await asyncio.sleep(1)


async def start() -> None:
    asyncio.create_task(job())  # error: TRF001:5


class App:
    _running: Set["asyncio.Future[Any]"] = set()

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self._running = set()

    def install(self) -> None:
        def factory(loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, Any]) -> "asyncio.Future[Any]":
            task = asyncio.Task(coro, loop=loop)
            self._running.add(task)
            return task

        self.loop.set_task_factory(factory)  # type: ignore[arg-type]
