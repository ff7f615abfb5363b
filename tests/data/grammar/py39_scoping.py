"""Grammar coverage: global, nonlocal and del with task handles."""
import asyncio
from typing import Any, Optional

CURRENT: Optional["asyncio.Task[Any]"] = None
TASKS: "set[asyncio.Task[Any]]" = set()


async def job(value: Any = None) -> Any:
    await asyncio.sleep(0)
    return value


def set_global() -> None:
    global CURRENT
    CURRENT = asyncio.create_task(job())


def set_global_collection() -> None:
    global TASKS
    TASKS = {asyncio.create_task(job())}
    TASKS.add(asyncio.create_task(job()))


def outer() -> Any:
    handle = asyncio.create_task(job())

    def inner() -> None:
        nonlocal handle
        handle = asyncio.create_task(job())

    def deeper() -> Any:
        def deepest() -> None:
            nonlocal handle
            del handle
        return deepest

    inner()
    return deeper, handle


async def deleting() -> None:
    task = asyncio.create_task(job())
    del task
    other = asyncio.create_task(job())
    del CURRENT_DICT[0], other  # noqa: F821
    pair = [asyncio.create_task(job()), asyncio.create_task(job())]
    del pair[0]
    await pair[0]


CURRENT_DICT = {0: asyncio.ensure_future(job())}
del CURRENT_DICT[0]
