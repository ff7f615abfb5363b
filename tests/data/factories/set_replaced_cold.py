"""The keeping set is bound again by a function that names no spawner (``global``): the tasks of the old set are dropped; the text shortcut sees it too."""
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
    loop.set_task_factory(factory)  # type: ignore[arg-type]


def reset() -> None:
    global _TASKS
    _TASKS = set()
