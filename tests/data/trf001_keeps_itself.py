"""A coroutine that stores its own task where it outlives the frame
(``self._stop_task = asyncio.current_task()``) keeps that task once it runs,
and the loop's queue holds it until then: a spawn of it, or a helper that
returns such a task, is not a lost task (a server's ``halt()`` read in the
trial of issue 32).  Its twins, which keep nothing, are reported: a coroutine
that keeps a task in a local, one that stores another task, one of another
and a method of the same name in another class."""
import asyncio
from typing import Optional


class Server:
    def __init__(self) -> None:
        self._stop_task: Optional["asyncio.Task[None]"] = None
        self._lock = asyncio.Lock()

    async def _stop_impl(self) -> None:
        async with self._lock:
            self._stop_task = asyncio.current_task()
            await asyncio.sleep(1)

    async def _keeps_local(self) -> None:
        current = asyncio.current_task()
        await asyncio.sleep(1)
        assert current is not None

    def halt(self) -> "asyncio.Task[None]":
        return asyncio.get_running_loop().create_task(self._stop_impl())

    def halt_local(self) -> "asyncio.Task[None]":
        return asyncio.get_running_loop().create_task(self._keeps_local())

    async def stop(self) -> None:
        self.halt()
        self.halt_local()  # error: TRF001:9
        asyncio.create_task(self._stop_impl())
        asyncio.ensure_future(self._keeps_local())  # error: TRF001:9
        if self._stop_task is not None:
            await self._stop_task


class Other:
    async def _stop_impl(self) -> None:
        await asyncio.sleep(1)

    def halt(self) -> None:
        asyncio.create_task(self._stop_impl())  # error: TRF001:9
