import asyncio
from typing import (
    Dict,
    Optional,
)

_background_tasks: "set[asyncio.Task[object]]" = set()

REGISTRY: Dict[str, Optional[int]] = {}


async def beat() -> None:
    await asyncio.sleep(1)


def start() -> None:
    beat_task = asyncio.create_task(beat())
    _background_tasks.add(beat_task)
    beat_task.add_done_callback(_background_tasks.discard)
    del beat_task
