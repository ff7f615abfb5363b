"""A keeping factory installed, then a reset written with a keyword: the tasks after it are not kept."""
import asyncio
from typing import Any, Coroutine, Set

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


def run(loop: asyncio.AbstractEventLoop) -> None:
    loop.set_task_factory(factory)  # type: ignore[arg-type]
    try:
        loop.run_until_complete(job())
    finally:
        loop.set_task_factory(factory=None)
