"""Issue 17, item 3: a one-shot handler object spawns in run() and is dropped
right after; a set on the handler dies with it (and with the task)."""
import asyncio
from typing import List

done: List[str] = []


class OneShot:
    def __init__(self, name: str) -> None:
        self.__background_tasks: set[asyncio.Task[object]] = set()
        self.name = name

    def run(self, event: asyncio.Event) -> None:
        work_task = asyncio.create_task(self._work(event))
        self.__background_tasks.add(work_task)
        work_task.add_done_callback(self.__background_tasks.discard)
        del work_task

    async def _work(self, event: asyncio.Event) -> None:
        await event.wait()
        done.append(self.name)


def handle(name: str, event: asyncio.Event) -> None:
    OneShot(name).run(event)
