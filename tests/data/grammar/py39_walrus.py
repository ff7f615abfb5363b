"""Grammar coverage: assignment expressions, also inside comprehensions."""
import asyncio
from typing import Any, List


async def job(value: Any = None) -> Any:
    await asyncio.sleep(0)
    return value


async def walrus(items: List[int]) -> Any:
    if (task := asyncio.create_task(job())) is not None:
        await task
    while (pending := asyncio.create_task(job())).done():
        pass
    kept = [last := asyncio.create_task(job(i)) for i in items]
    firsts = [y for x in items if (y := asyncio.create_task(job(x)))]
    nested = [[(z := asyncio.ensure_future(job(a))) for a in range(b)] for b in items]
    print((lone := asyncio.create_task(job())))
    args = job((inner := asyncio.create_task(job())))
    total = sum(v for v in items if (w := v) > 0)
    print(kept, firsts, nested, args, total)
    return pending, last, z, inner, w, lone  # noqa: F821 - comprehension targets leak


def module_like() -> None:
    [(handle := asyncio.ensure_future(job(i))) for i in range(3)]
    print(handle)
