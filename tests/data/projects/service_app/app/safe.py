"""The keeping twins: every handle is kept, awaited or stored."""
import asyncio
from typing import Any, Awaitable, Callable, List, Set

from app import keep_task, start_background
from app.bus import EventBus
from app.util import kept_spawn, log_on_fail, spawn_logged
from app.workers import BaseWorker, Connection

tasks: Set["asyncio.Task[Any]"] = set()


class Dispatcher(BaseWorker):
    def __init__(self, worker: BaseWorker, bus: EventBus) -> None:
        super().__init__()
        self._worker = worker
        self._bus = bus
        self._tasks: List["asyncio.Task[Any]"] = []

    async def start(self, watch: Callable[[], Awaitable[None]]) -> None:
        self._tasks.append(spawn_logged(watch(), name="watch"))
        task = start_background(watch())
        tasks.add(task)
        task.add_done_callback(tasks.discard)
        kept_spawn(watch())
        keep_task(asyncio.create_task(watch()))
        self._tasks.append(self._start_background(watch()))
        self._tasks.append(self.io.create_task(watch()))
        await asyncio.gather(*self._bus.dispatch("started"))

    async def stop(self) -> None:
        closing = asyncio.create_task(self._worker.cancel_group("all"))
        self._tasks.append(closing)
        await asyncio.shield(closing)

    async def awaited(self, watch: Callable[[], Awaitable[None]]) -> None:
        task = spawn_logged(watch())
        log_on_fail(task)
        await task


async def close(conn: "Connection[Any]") -> None:
    await conn.close()
