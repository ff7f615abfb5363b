"""Spawns around Python 3.15 syntax: lazy imports (PEP 810) of asyncio and of
its spawners, and unpacking in comprehensions (PEP 798)."""
lazy import asyncio
lazy from asyncio import create_task
lazy from asyncio import ensure_future as spawn
lazy import asyncio as aio


async def job() -> None:
    await asyncio.sleep(1)


async def lazily_imported() -> None:
    asyncio.create_task(job())  # error: TRF001:5
    create_task(job())  # error: TRF001:5
    spawn(job())  # error: TRF001:5
    aio.get_running_loop().create_task(job())  # error: TRF001:5


async def unpacked_in_comprehensions(groups: "list[list[asyncio.Task[None]]]") -> None:
    tasks = [*group for group in groups]
    by_name = {**{task.get_name(): task} for task in tasks}
    print(len(by_name))
    [*[create_task(job())] for _ in range(3)]  # error: TRF001:8
    {**{"name": create_task(job())} for _ in range(3)}  # error: TRF001:17


async def unpacked_and_kept() -> "list[asyncio.Task[None]]":
    return [*[create_task(job()), create_task(job())] for _ in range(3)]


async def unpacked_and_awaited() -> None:
    every = {**{"one": create_task(job())} for _ in range(3)}
    await asyncio.gather(*every.values())


async def local_comprehension_dropped() -> None:
    local = [*[create_task(job())] for _ in range(2)]  # error: TRF002:16
    print(len(local))
