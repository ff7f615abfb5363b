"""An existing set typed for asyncio's futures cannot take a concurrent one:
left with a reason."""
import asyncio
from typing import Any

_background_tasks: "set[asyncio.Future[Any]]" = set()


async def deliver() -> None:
    await asyncio.sleep(0.01)


def notify(loop: asyncio.AbstractEventLoop) -> None:
    asyncio.run_coroutine_threadsafe(deliver(), loop)
