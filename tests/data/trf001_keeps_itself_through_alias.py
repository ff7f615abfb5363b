"""A coroutine that adds its own task to a collection the object holds, through a
local bound to it (``internal = self._internal_tasks[key]; internal.add(task)``)
and a ``typing.cast`` of ``current_task()``, before it first waits, keeps that task:
arrlio's ``_create_internal_task``, whose callers drop what it returns (three false
alarms of the twenty-third trial).  The twins, which keep nothing the object holds,
are reported: a local set of the frame, a local bound twice, and a copy of the
instance's list (``self._all[:]``)."""
import asyncio
from typing import Any, Callable, Dict, List, Set, cast


class Backend:
    def __init__(self) -> None:
        self._internal_tasks: Dict[str, Set["asyncio.Task[Any]"]] = {}
        self._all: List["asyncio.Task[Any]"] = []

    def _create_internal_task(self, key: str, factory: Callable[[], Any]) -> "asyncio.Task[Any]":
        async def fn() -> Any:
            task = cast(asyncio.Task, asyncio.current_task())
            internal = self._internal_tasks[key]
            internal.add(task)
            try:
                return await factory()
            finally:
                internal.discard(task)

        return asyncio.create_task(fn())

    def _create_local_task(self, factory: Callable[[], Any]) -> "asyncio.Task[Any]":
        async def fn() -> Any:
            task = cast(asyncio.Task, asyncio.current_task())
            local: Set["asyncio.Task[Any]"] = set()
            local.add(task)
            return await factory()

        return asyncio.create_task(fn())

    def _create_rebound_task(self, key: str, factory: Callable[[], Any]) -> "asyncio.Task[Any]":
        async def fn() -> Any:
            task = asyncio.current_task()
            internal = self._internal_tasks[key]
            internal = set()
            internal.add(task)
            return await factory()

        return asyncio.create_task(fn())

    def _create_copied_task(self, factory: Callable[[], Any]) -> "asyncio.Task[Any]":
        async def fn() -> Any:
            copied = self._all[:]
            copied.append(asyncio.current_task())
            return await factory()

        return asyncio.create_task(fn())

    def consume(self, factory: Callable[[], Any]) -> None:
        self._create_internal_task("consume", factory)
        self._create_local_task(factory)  # error: TRF001:9
        self._create_rebound_task("consume", factory)  # error: TRF001:9
        self._create_copied_task(factory)  # error: TRF001:9
