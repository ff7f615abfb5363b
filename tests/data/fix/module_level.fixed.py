import asyncio
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Dict, Set

tasks = []
loop = asyncio.new_event_loop()

_background_tasks: "set[asyncio.Task[object]]" = set()

try:
    import json
    sleep_task = loop.create_task(asyncio.sleep(0.01))
    _background_tasks.add(sleep_task)
    sleep_task.add_done_callback(_background_tasks.discard)
    del sleep_task
except ImportError:
    json = None


def f(x: "Dict[str, int]") -> None:
    g_task = asyncio.create_task(g())
    _background_tasks.add(g_task)
    g_task.add_done_callback(_background_tasks.discard)
    del g_task


def h() -> None:
    tasks = set()
    t = asyncio.create_task(g())
    _background_tasks.add(t)
    t.add_done_callback(_background_tasks.discard)
    tasks.add(t)
    t.add_done_callback(tasks.discard)
    print(len(tasks))


async def g() -> None:
    pass
