"""A thread hands coroutines to the loop: run_coroutine_threadsafe() returns a
concurrent.futures.Future, which the new set is typed to take (Any)."""
import asyncio
from typing import Any


class Bridge:
    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop

    def notify(self, message: str) -> None:
        asyncio.run_coroutine_threadsafe(self.deliver(message), self.loop)

    def spawn_too(self) -> None:
        asyncio.get_running_loop().create_task(self.deliver("also"))

    async def deliver(self, message: str) -> Any:
        await asyncio.sleep(0)
        return message
