"""A thread hands coroutines to the loop: run_coroutine_threadsafe() returns a
concurrent.futures.Future, which the new set is typed to take (Any)."""
import asyncio
from typing import Any

_background_tasks: "set[Any]" = set()


class Bridge:
    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop

    def notify(self, message: str) -> None:
        deliver_task = asyncio.run_coroutine_threadsafe(
            self.deliver(message), self.loop
        )
        _background_tasks.add(deliver_task)
        deliver_task.add_done_callback(_background_tasks.discard)
        del deliver_task

    def spawn_too(self) -> None:
        deliver_task = asyncio.get_running_loop().create_task(
            self.deliver("also")
        )
        _background_tasks.add(deliver_task)
        deliver_task.add_done_callback(_background_tasks.discard)
        del deliver_task

    async def deliver(self, message: str) -> Any:
        await asyncio.sleep(0)
        return message
