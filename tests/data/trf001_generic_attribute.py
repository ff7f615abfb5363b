"""TRF001: an attribute made with a generic class's call (``self._dispatcher =
Dispatcher[T]()``) has that class as its type, as ``Dispatcher()`` does: a spawn
of its method that never suspends is silent, one that waits is reported
(cloudcoil's informer, read in the fortieth trial)."""
import asyncio
from typing import Generic, List, TypeVar

T = TypeVar("T")


class Dispatcher(Generic[T]):
    def __init__(self) -> None:
        self.handlers: List[T] = []

    async def register(self, handler: T) -> None:
        self.handlers.append(handler)

    async def dispatch(self) -> None:
        await asyncio.sleep(1)


class Informer(Generic[T]):
    def __init__(self) -> None:
        self._dispatcher = Dispatcher[T]()

    def on_add(self, handler: T) -> None:
        loop = asyncio.get_running_loop()
        loop.create_task(self._dispatcher.register(handler))
        loop.create_task(self._dispatcher.dispatch())  # error: TRF001:9
