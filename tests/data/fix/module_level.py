import asyncio
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Dict, Set

tasks = []
loop = asyncio.new_event_loop()
try:
    import json
    loop.create_task(asyncio.sleep(0.01))
except ImportError:
    json = None


def f(x: "Dict[str, int]") -> None:
    asyncio.create_task(g())


def h() -> None:
    tasks = set()
    t = asyncio.create_task(g())
    tasks.add(t)
    t.add_done_callback(tasks.discard)
    print(len(tasks))


async def g() -> None:
    pass
