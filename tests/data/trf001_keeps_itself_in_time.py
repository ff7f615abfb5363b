"""A coroutine keeps its own task only if it stores ``asyncio.current_task()``
on every path, before it first waits: until its first step the loop's queue
holds the task, and from then on the attribute does.  A store after an
``await``, an ``async for`` or a whole ``async with``, or one made only under
an ``if``, in a loop or in a handler, leaves the task held by nothing while it
waits: the spawn is reported (issue 32, a reviewer's point on the exemption of
``coroutines.keeps_itself``).  The keeping twins store first: in the ``try``
body or its ``finally``, in the ``async with`` block whose entry is the first
wait (a server's ``_stop_impl`` in the seventh trial), under
``contextlib.suppress``."""
import asyncio
import contextlib
from typing import Any, AsyncIterator, Optional


class Server:
    def __init__(self) -> None:
        self._task: Optional["asyncio.Task[Any]"] = None
        self._lock = asyncio.Lock()

    async def _stores_after_await(self) -> None:
        await asyncio.sleep(1)
        self._task = asyncio.current_task()

    async def _stores_under_if(self, keep: bool) -> None:
        if keep:
            self._task = asyncio.current_task()
        await asyncio.sleep(1)

    async def _stores_after_block(self) -> None:
        async with self._lock:
            pass
        self._task = asyncio.current_task()
        await asyncio.sleep(1)

    async def _stores_in_loop(self, items: AsyncIterator[int]) -> None:
        async for _ in items:
            self._task = asyncio.current_task()

    async def _stores_in_handler(self) -> None:
        try:
            await asyncio.sleep(1)
        except OSError:
            self._task = asyncio.current_task()
            await asyncio.sleep(1)

    async def _stores_first(self) -> None:
        try:
            self._task = asyncio.current_task()
            await asyncio.sleep(1)
        finally:
            self._task = None

    async def _stores_in_block(self) -> None:
        async with self._lock:
            self._task = asyncio.current_task()
            await asyncio.sleep(1)

    async def _stores_in_finally(self) -> None:
        try:
            print("starting")
        finally:
            self._task = asyncio.current_task()
        await asyncio.sleep(1)

    async def _stores_suppressed(self) -> None:
        with contextlib.suppress(RuntimeError):
            self._task = asyncio.current_task()
        await asyncio.sleep(1)

    def halt_late(self) -> "asyncio.Task[None]":
        return asyncio.get_running_loop().create_task(self._stores_after_await())

    def halt_first(self) -> "asyncio.Task[None]":
        return asyncio.get_running_loop().create_task(self._stores_first())

    async def stop(self, items: AsyncIterator[int]) -> None:
        asyncio.create_task(self._stores_after_await())  # error: TRF001:9
        asyncio.create_task(self._stores_under_if(True))  # error: TRF001:9
        asyncio.create_task(self._stores_after_block())  # error: TRF001:9
        asyncio.create_task(self._stores_in_loop(items))  # error: TRF001:9
        asyncio.create_task(self._stores_in_handler())  # error: TRF001:9
        self.halt_late()  # error: TRF001:9
        asyncio.create_task(self._stores_first())
        asyncio.create_task(self._stores_in_block())
        asyncio.create_task(self._stores_suppressed())
        asyncio.create_task(self._stores_in_finally())
        self.halt_first()
