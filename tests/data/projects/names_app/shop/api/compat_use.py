"""asyncio's spawners bound to names of a compatibility module of the project
(issue 32): a call of one is a spawn."""
from typing import Any

from ..compat import create_task, either, ensure, spawn


async def job() -> None:
    pass


async def start(fut: Any) -> None:
    create_task(job())  # error: TRF001:5
    spawn(job())  # error: TRF001:5
    ensure(job())  # error: TRF001:5
    waiting = create_task(job())  # error: TRF002:15
    waiting.add_done_callback(print)
    ensure(fut)
    either(job())
    kept = spawn(job())
    await kept
