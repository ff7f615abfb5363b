"""Grammar coverage: async comprehensions, async generators and async for."""
import asyncio
from typing import Any, AsyncIterator, Dict, List, Set


async def job(value: Any = None) -> Any:
    await asyncio.sleep(0)
    return value


async def agen(n: int) -> AsyncIterator[int]:
    for i in range(n):
        task = asyncio.create_task(job(i))
        yield await task
    asyncio.create_task(job())


async def stream() -> AsyncIterator["asyncio.Task[Any]"]:
    while True:
        yield asyncio.create_task(job())
        async for value in agen(3):
            yield asyncio.ensure_future(job(value))


async def comprehensions(n: int) -> None:
    as_list: List[Any] = [asyncio.create_task(job(i)) async for i in agen(n)]
    as_set: Set[Any] = {asyncio.create_task(job(i)) async for i in agen(n) if i}
    as_dict: Dict[int, Any] = {i: asyncio.ensure_future(job(i)) async for i in agen(n)}
    awaited = [await t async for t in stream() if not t.done()]
    nested = [[asyncio.create_task(job(j)) for j in range(i)] async for i in agen(n)]
    gen = (asyncio.create_task(job(i)) async for i in agen(n))
    mixed = [await job(x) for x in range(n) if await job(x)]
    double = [asyncio.create_task(job(a + b)) async for a in agen(2) for b in range(a)]
    [asyncio.create_task(job(i)) async for i in agen(n)]
    print(as_list, as_set, as_dict, awaited, nested, gen, mixed, double)
    async for task in stream():
        asyncio.create_task(job(task))
        task.cancel()
        break
    else:
        asyncio.create_task(job())
    results = await asyncio.gather(*[job(i) async for i in agen(n)])
    print(results)
