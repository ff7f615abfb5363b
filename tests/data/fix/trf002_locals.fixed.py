import asyncio
from typing import Any

_background_tasks: set[asyncio.Task[object]] = set()


async def work(n: int) -> int:
    await asyncio.sleep(n)
    return n


async def refresh() -> None:
    task = asyncio.create_task(work(1))
    _background_tasks.add(task)
    task.add_done_callback(_background_tasks.discard)
    task.add_done_callback(print)


async def annotated() -> None:
    handle: "asyncio.Task[int]" = asyncio.create_task(work(2))
    _background_tasks.add(handle)
    handle.add_done_callback(_background_tasks.discard)
    print(handle.done())


async def looped(items: list[Any]) -> None:
    for item in items:
        t = asyncio.create_task(work(item))
        _background_tasks.add(t)
        t.add_done_callback(_background_tasks.discard)
    await t
