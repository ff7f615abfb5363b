"""Issue 17, item 3: a one-shot handler object spawns in run() and is dropped
right after; a set on the handler dies with it (and with the task)."""
import asyncio
from typing import List

done: List[str] = []


class OneShot:
    def __init__(self, name: str) -> None:
        self.name = name

    def run(self, event: asyncio.Event) -> None:
        asyncio.create_task(self._work(event))

    async def _work(self, event: asyncio.Event) -> None:
        await event.wait()
        done.append(self.name)


def handle(name: str, event: asyncio.Event) -> None:
    OneShot(name).run(event)
