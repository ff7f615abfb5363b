"""A loop variable over a collection attribute whose elements' class is written
down (``list[Run]``, ``Set[Slow]``; ``dict[str, Run]``'s ``.values()``) is typed
by it: a spawn of a coroutine that awaits only methods of it that never wait is
silent (poethepoet's done callback: ``for child in self._children: await
child.kill()``), one that awaits a method that waits is reported.  A dict's keys,
a rebound loop variable, a method an attribute store may replace or a class of
the file deriving from it may redefine, or another ``self``: not followed."""
from __future__ import annotations

import asyncio
from typing import Dict, Set


class Run:
    def __init__(self, name: str) -> None:
        self.task = asyncio.create_task(asyncio.sleep(1))
        self.task.add_done_callback(lambda _: asyncio.create_task(self._done()))
        self._children: list[Run] = []

    async def _done(self) -> None:
        await self.kill()

    async def kill(self) -> None:  # never waits: it cancels, and kills its children
        self.task.cancel()
        for child in self._children:
            await child.kill()


class Waiting:
    def __init__(self) -> None:
        self.task = asyncio.create_task(asyncio.sleep(1))
        self.task.add_done_callback(lambda _: asyncio.create_task(self._done()))  # error: TRF001:47
        self._children: list[Waiting] = []

    async def _done(self) -> None:
        await self.kill()

    async def kill(self) -> None:
        self.task.cancel()
        for child in self._children:
            await child.kill()
        await asyncio.sleep(0.5)  # waits


class Handler:
    async def handle(self, data: str) -> None:  # never waits
        print(data)

    async def wait(self, data: str) -> None:
        await asyncio.sleep(1)


class Slow:
    async def handle(self, data: str) -> None:
        await asyncio.sleep(1)


class Hub:
    def __init__(self) -> None:
        self.handlers: list[Handler] = []
        self.slow: Set[Slow] = set()
        self.by_key: Dict[str, Handler] = {}

    def dispatch(self, data: str) -> None:
        for handler in self.handlers:
            asyncio.create_task(handler.handle(data))
        for handler_copy in list(self.handlers):
            asyncio.create_task(handler_copy.handle(data))
        for waiting in self.handlers:
            asyncio.create_task(waiting.wait(data))  # error: TRF001:13
        for slow in self.slow:
            asyncio.create_task(slow.handle(data))  # error: TRF001:13
        for value in self.by_key.values():
            asyncio.create_task(value.handle(data))
        for key in self.by_key:  # a dict's keys: not its values' class
            asyncio.create_task(key.handle(data))  # error: TRF001:13

    def rebound(self, data: str, other: Slow) -> None:
        for handler in self.handlers:
            asyncio.create_task(handler.handle(data))  # error: TRF001:13
            handler = other


class Hooked:
    def __init__(self) -> None:
        self.items: list[Hooked] = []
        self.ticker = asyncio.create_task(asyncio.sleep(1))  # (a spawn: the class is entered)

    async def stop(self) -> None:
        print("stopped")

    def replace(self, hook: Slow) -> None:
        self.stop = hook.handle  # the method may be another coroutine

    async def stop_all(self) -> None:
        for item in self.items:
            await item.stop()

    def start(self) -> None:
        asyncio.create_task(self.stop_all())  # error: TRF001:9


class Base:
    def __init__(self) -> None:
        self.task = asyncio.create_task(asyncio.sleep(1))
        self._children: list[Base] = []

    async def kill(self) -> None:
        self.task.cancel()
        for child in self._children:
            await child.kill()


class SlowBase(Base):
    async def kill(self) -> None:  # a child may be one of these
        await asyncio.sleep(1)


class Owner:
    def __init__(self) -> None:
        self.runs: list[Base] = []

    def stop(self) -> None:
        for run in self.runs:
            asyncio.create_task(run.kill())  # error: TRF001:13

    def nested(self, others: list[Hub]) -> None:
        def inner(self: Hub) -> None:  # another ``self``
            for handler in self.handlers:
                asyncio.create_task(handler.handle("x"))  # error: TRF001:17
        for other in others:
            inner(other)
