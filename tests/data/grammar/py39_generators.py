"""Grammar coverage: generators, generator expressions and coroutine plumbing."""
import asyncio
from typing import Any, Generator, Iterable


async def job(value: Any = None) -> Any:
    await asyncio.sleep(0)
    return value


def produce(n: int) -> Generator[Any, Any, Any]:
    received = yield asyncio.create_task(job())
    while received:
        received = yield asyncio.ensure_future(job(received))
    yield from (asyncio.create_task(job(i)) for i in range(n))
    return (yield)


def consume(values: Iterable[int]) -> None:
    gen = (asyncio.create_task(job(v)) for v in values)
    any(asyncio.create_task(job(v)) for v in values)
    list(gen)
    next(produce(2))
    for task in produce(3):
        task.cancel()


async def awaiting() -> None:
    await asyncio.sleep(0)
    await (asyncio.create_task(job()))
    value = await asyncio.shield(asyncio.create_task(job()))
    keep = asyncio.create_task(job())
    await asyncio.shield(keep)
    done, pending = await asyncio.wait({asyncio.create_task(job())}, timeout=1)
    print(value, done, pending)
