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


class Worker:
    """The task stored through a local bound to it, or added to a collection of
    the instance: kept; stored only after it waits, or in a local collection
    (which its own frame holds: a cycle, no keeper): reported."""

    def __init__(self) -> None:
        self._current: Optional["asyncio.Task[None]"] = None
        self._running: "set[asyncio.Task[None]]" = set()

    async def _through_a_local(self) -> None:
        me = asyncio.current_task()
        self._current = me  # type: ignore[assignment]
        await asyncio.sleep(1)

    async def _in_a_set(self) -> None:
        self._running.add(asyncio.current_task())  # type: ignore[arg-type]
        await asyncio.sleep(1)

    async def _after_a_wait(self) -> None:
        me = asyncio.current_task()
        await asyncio.sleep(1)
        self._current = me  # type: ignore[assignment]

    async def _in_a_local_set(self) -> None:
        mine = set()
        mine.add(asyncio.current_task())
        await asyncio.sleep(1)

    def start(self) -> None:
        asyncio.create_task(self._through_a_local())
        asyncio.create_task(self._in_a_set())
        asyncio.create_task(self._after_a_wait())  # error: TRF001:9
        asyncio.create_task(self._in_a_local_set())  # error: TRF001:9
