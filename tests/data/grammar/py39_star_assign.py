"""Grammar coverage: star-assignments, unpacking and every assignment target."""
import asyncio
from typing import Any, Dict, List


async def job(value: Any = None) -> Any:
    await asyncio.sleep(0)
    return value


class Box:
    slot: Any = None


async def unpacking(items: List[int], box: Box, table: Dict[str, Any]) -> None:
    first, *rest = asyncio.create_task(job()), asyncio.create_task(job()), asyncio.create_task(job())
    *head, last = [asyncio.ensure_future(job(i)) for i in items]
    (a, b), c = (asyncio.create_task(job()), asyncio.create_task(job())), asyncio.create_task(job())
    [d, [e, *f]] = [asyncio.create_task(job()), [asyncio.create_task(job())]]
    x = y = asyncio.create_task(job())
    box.slot, table["k"] = asyncio.create_task(job()), asyncio.create_task(job())
    box.slot = asyncio.create_task(job())
    table["other"] = asyncio.create_task(job())
    total: int = 0
    annotated: "asyncio.Task[Any]" = asyncio.create_task(job())
    holder: List[Any] = []
    holder += [asyncio.create_task(job())]
    holder[0:1] = [asyncio.create_task(job())]
    total += len(items)
    for (k, *vs) in [(1, 2, 3)]:
        asyncio.create_task(job(k, *vs))
    for i, t in enumerate([asyncio.create_task(job())]):
        await t
    merged = [*rest, *head, *[asyncio.create_task(job())]]
    spread = {**table, "n": asyncio.create_task(job())}
    called = print(*merged, *[asyncio.create_task(job())])
    await asyncio.gather(first, *rest, *head, last, a, b, c, d, e, *f, x, y, annotated)
    print(spread, called, total, i)
