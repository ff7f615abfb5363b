import asyncio
from typing import Any


async def work(n: int) -> int:
    await asyncio.sleep(n)
    return n


async def refresh() -> None:
    task = asyncio.create_task(work(1))
    task.add_done_callback(print)


async def annotated() -> None:
    handle: "asyncio.Task[int]" = asyncio.create_task(work(2))
    print(handle.done())


async def looped(items: list[Any]) -> None:
    for item in items:
        t = asyncio.create_task(work(item))
    await t
