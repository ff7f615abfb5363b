"""Issue 17, item 2: a client that keeps its tasks in a set that stop() waits
on and cancels; restart() calls stop() then start().  The dropped restart task
must not go into that set, or it would wait on and cancel itself."""
import asyncio
from typing import List, Set

_background_tasks: Set["asyncio.Task[object]"] = set()


class Client:
    def __init__(self) -> None:
        self.pending_tasks: Set["asyncio.Task[None]"] = set()
        self.state = "new"
        self.log: List[str] = []

    def start(self) -> None:
        self.state = "running"
        self.log.append("started")
        task = asyncio.get_running_loop().create_task(self._pump())
        self.pending_tasks.add(task)
        task.add_done_callback(self.pending_tasks.discard)

    async def stop(self) -> None:
        self.state = "stopping"
        self.log.append("stopping")
        for task in self.pending_tasks:
            task.cancel()
        await asyncio.gather(*self.pending_tasks, return_exceptions=True)
        self.state = "stopped"
        self.log.append("stopped")

    async def restart(self) -> None:
        await self.stop()
        self.start()

    def connection_lost(self) -> None:
        restart_task = asyncio.get_running_loop().create_task(self.restart())
        _background_tasks.add(restart_task)
        restart_task.add_done_callback(_background_tasks.discard)
        del restart_task

    async def _pump(self) -> None:
        await asyncio.sleep(3600)
