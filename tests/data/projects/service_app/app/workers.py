"""A base class that spawns, sets the loop its subclasses spawn on, and has
coroutine methods."""
import asyncio
from typing import Any, Coroutine, Generic, TypeVar

T = TypeVar("T")


class BaseWorker:
    def __init__(self) -> None:
        self.io = asyncio.get_running_loop()

    async def cancel_group(self, name: str) -> None:
        await asyncio.sleep(0.01)

    def _start_background(self, coro: "Coroutine[Any, Any, Any]") -> "asyncio.Task[Any]":
        return asyncio.create_task(coro)


class Connection(Generic[T]):
    async def close(self) -> None:
        await asyncio.sleep(0.01)

    def closed(self) -> "asyncio.Future[None]":
        """A plain method: what it returns is no coroutine ``ensure_future`` wraps."""
        return asyncio.get_running_loop().create_future()
