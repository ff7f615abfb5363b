"""Handles named after what is spawned, as a reviewer would name them (issue 25):
never task_1, task_2 where the spawn has a word."""
import asyncio
import functools
from typing import Any, Callable, Coroutine, List


class Supervisor:
    def __init__(self, reader: Any, writer: Any, jobs: List[Any]) -> None:
        self.reader = reader
        self.writer = writer
        self.jobs = jobs
        self.client: Any = None
        self.on_message: Callable[[], Coroutine[Any, Any, None]] = self._idle
        self.pending_tasks: List[Coroutine[Any, Any, None]] = []

    async def _watchdog(self) -> None:
        await asyncio.sleep(1)

    async def _idle(self) -> None:
        pass

    async def _heartbeat(self, interval: float) -> None:
        await asyncio.sleep(interval)

    def _factory(self) -> Callable[[], Coroutine[Any, Any, None]]:
        return self._idle

    def start(self, coro: Coroutine[Any, Any, None]) -> None:
        asyncio.create_task(self._watchdog())
        asyncio.get_running_loop().create_task(self._heartbeat(5))
        asyncio.create_task(coro)
        asyncio.create_task(coro=self._idle())
        asyncio.create_task(asyncio.wait_for(self._heartbeat(1), timeout=5))
        asyncio.create_task(functools.partial(self._heartbeat, 2)())
        asyncio.create_task(self._factory()())
        asyncio.create_task(self.on_message())
        asyncio.create_task(self.jobs[0].run())
        asyncio.create_task(self.pending_tasks[0])
        asyncio.gather(self._heartbeat(1), self._heartbeat(2))

    def connect(self, coro: Coroutine[Any, Any, None]) -> None:
        # two methods of one name on different objects: each named with its object
        asyncio.create_task(self.reader.run())
        asyncio.create_task(self.writer.run())
        asyncio.create_task(coro, name="keepalive")
        print(asyncio.create_task(self.client.serve_forever()))

    async def restart(self) -> None:
        _ = asyncio.create_task(self.reader.reconnect())
        asyncio.create_task(await self.client.session())
        asyncio.create_task(self._watchdog())
        asyncio.create_task(self._watchdog())


def launch(loop: asyncio.AbstractEventLoop) -> None:
    loop.create_task(Supervisor(None, None, []).restart())
