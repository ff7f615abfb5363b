"""A local bound to a value of a mapping whose values' class is written down
(``dict[str, Handler]``), or the value itself, is typed by it: a spawn of a
coroutine method of it that never waits is silent, one of a method that waits
is reported, as for a local made by the class.  Two annotations that disagree,
a rebound local, or a list's item: not typed."""
import asyncio
from typing import Dict


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
        self.handlers: Dict[str, Handler] = {}
        self.items: list[Handler] = []
        self.fallback = Slow()

    def dispatch(self, key: str, data: str) -> None:
        handler = self.handlers.get(key)
        asyncio.create_task(handler.handle(data))
        asyncio.create_task(self.handlers[key].handle(data))
        asyncio.create_task(handler.wait(data))  # error: TRF001:9
        asyncio.create_task(self.items[0].handle(data))  # error: TRF001:9
        fallback = self.handlers.get(key, self.fallback)  # a default of another class
        asyncio.create_task(fallback.handle(data))  # error: TRF001:9
        asyncio.create_task(self.handlers.pop(key, Slow()).handle(data))  # error: TRF001:9
        asyncio.create_task(self.handlers.setdefault(key, Handler()).handle(data))

    def remembered(self, key: str, data: str) -> None:
        handler = self.handlers[key]
        self.current = handler  # (the attribute is not typed by it)
        asyncio.create_task(self.current.handle(data))  # error: TRF001:9

    def rebound(self, key: str, data: str, other: object) -> None:
        handler = self.handlers[key]
        if data:
            handler = other
        asyncio.create_task(handler.handle(data))  # error: TRF001:9
