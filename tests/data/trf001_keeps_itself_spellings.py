"""A coroutine that keeps its own task before it first waits, however it spells
it: an annotated local, a walrus in an ``if`` that tests it (inside a task the
current task is never None), a module-level set.  Each has a reported twin that
keeps it only on some paths, in a local, a closure's local or a weak set (fresh-eyes
review of issue 32)."""
import asyncio
import weakref
from typing import Optional

_RUNNING: "set[asyncio.Task[None]]" = set()


class Worker:
    def __init__(self) -> None:
        self._current: Optional["asyncio.Task[None]"] = None
        self.wanted = False

    async def annotated(self) -> None:
        me: Optional["asyncio.Task[None]"] = asyncio.current_task()
        self._current = me
        await asyncio.sleep(1)

    async def walrus(self) -> None:
        if (me := asyncio.current_task()) is not None:
            self._current = me
        await asyncio.sleep(1)

    async def tested(self) -> None:
        me = asyncio.current_task()
        if me:
            self._current = me
        await asyncio.sleep(1)

    async def module_set(self) -> None:
        _RUNNING.add(asyncio.current_task())  # type: ignore[arg-type]
        await asyncio.sleep(1)

    async def annotated_when_wanted(self) -> None:
        me: Optional["asyncio.Task[None]"] = asyncio.current_task()
        if self.wanted:
            self._current = me
        await asyncio.sleep(1)

    async def walrus_is_none(self) -> None:
        if (me := asyncio.current_task()) is None:
            self._current = me
        await asyncio.sleep(1)

    async def local_set(self) -> None:
        running = set()
        running.add(asyncio.current_task())
        await asyncio.sleep(1)

    def start(self) -> None:
        asyncio.create_task(self.annotated())
        asyncio.create_task(self.walrus())
        asyncio.create_task(self.tested())
        asyncio.create_task(self.module_set())
        asyncio.create_task(self.annotated_when_wanted())  # error: TRF001:9
        asyncio.create_task(self.walrus_is_none())  # error: TRF001:9
        asyncio.create_task(self.local_set())  # error: TRF001:9


_WEAK: "weakref.WeakSet[asyncio.Task[None]]" = weakref.WeakSet()


async def weak_module_set() -> None:
    _WEAK.add(asyncio.current_task())  # type: ignore[arg-type]  # a weak set keeps nothing
    await asyncio.sleep(1)


def start_more() -> None:
    asyncio.create_task(weak_module_set())  # error: TRF001:5
    running = set()

    async def closure_set() -> None:
        running.add(asyncio.current_task())  # a local of start_more(), gone when it returns
        await asyncio.sleep(1)

    asyncio.create_task(closure_set())  # error: TRF001:5


def init_registry() -> None:
    global _REGISTRY
    _REGISTRY = set()


async def global_set() -> None:
    _REGISTRY.add(asyncio.current_task())  # a module global, bound by init_registry()
    await asyncio.sleep(1)


def start_with(registry: "set[asyncio.Task[None]]") -> None:
    async def into_parameter() -> None:
        registry.add(asyncio.current_task())  # the caller's set
        await asyncio.sleep(1)

    asyncio.create_task(into_parameter())
    init_registry()
    asyncio.create_task(global_set())
