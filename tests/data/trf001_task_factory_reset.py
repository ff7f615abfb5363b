"""A module that installs a keeping task factory and also resets it
(``set_task_factory(None)``) keeps its findings: the tasks made after the reset
are not kept (see trf001_task_factory_keeps.py)."""
import asyncio
from typing import Any, Coroutine, Set

_TASKS: Set["asyncio.Future[Any]"] = set()


def keeping_factory(loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, Any]) -> "asyncio.Future[Any]":
    task = asyncio.Task(coro, loop=loop)
    _TASKS.add(task)
    task.add_done_callback(_TASKS.discard)
    return task


async def job() -> None:
    await asyncio.sleep(1)


def run() -> None:
    loop = asyncio.new_event_loop()
    loop.set_task_factory(keeping_factory)  # type: ignore[arg-type]
    try:
        loop.run_until_complete(job())
    finally:
        loop.set_task_factory(None)


async def start() -> None:
    asyncio.create_task(job())  # error: TRF001:5
