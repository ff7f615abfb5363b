"""A spawn that runs at import before asyncio is imported: the set comes before
it, so its annotation may use only what is imported by then."""
from typing import Any

loop = __import__("asyncio").new_event_loop()

_background_tasks: "set[object]" = set()

sleep_task = loop.create_task(__import__("asyncio").sleep(0))
_background_tasks.add(sleep_task)
sleep_task.add_done_callback(_background_tasks.discard)
del sleep_task

import asyncio  # noqa: E402


def later() -> None:
    sleep_task = asyncio.create_task(asyncio.sleep(0.01))
    _background_tasks.add(sleep_task)
    sleep_task.add_done_callback(_background_tasks.discard)
    del sleep_task
