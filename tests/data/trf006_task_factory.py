# flake8-args: --extend-select=TRF006
"""TRF006 is about a set that only grows, whether or not it keeps the tasks: a
module whose keeping task factory never prunes its set keeps that finding, and
only that one (see trf001_task_factory_keeps.py)."""
import asyncio
from typing import Any, Coroutine, Set

_TASKS: Set["asyncio.Future[Any]"] = set()


def keeping_factory(loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, Any]) -> "asyncio.Future[Any]":
    task = asyncio.Task(coro, loop=loop)
    _TASKS.add(task)  # error: TRF006:5
    return task


async def job() -> None:
    await asyncio.sleep(1)


def install(loop: asyncio.AbstractEventLoop) -> None:
    loop.set_task_factory(keeping_factory)  # type: ignore[arg-type]


async def start() -> None:
    asyncio.create_task(job())  # (kept by the factory's set)
