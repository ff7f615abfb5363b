"""Typed code (mypy --strict passes) whose spawns return Tasks and Futures: the
fixed file's set is typed to hold them all, so mypy still passes; a task is named
in lower case after a camelCase coroutine."""
import asyncio
from typing import Any, Awaitable, Callable


async def job() -> int:
    await asyncio.sleep(0.01)
    return 1


class Poller:
    def __init__(self, interval: float) -> None:
        self.interval = interval

    def start(self) -> None:
        asyncio.ensure_future(job())

    async def reqSummary(self) -> None:
        await asyncio.sleep(self.interval)

    def onError(self) -> None:
        asyncio.ensure_future(self.reqSummary())

    def watch(self, loop: asyncio.AbstractEventLoop) -> None:
        both = asyncio.gather(job(), loop.create_future(), return_exceptions=True)
        both.add_done_callback(print)


def spawn_all(callback: Callable[[], Awaitable[Any]]) -> None:
    asyncio.create_task(job())
    asyncio.shield(job())
    asyncio.ensure_future(callback())
