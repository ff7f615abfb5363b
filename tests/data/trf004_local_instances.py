"""TRF004 (issue 32): asyncio.shield() of a coroutine method of a local whose
class the function shows: ``impl = cls(...)`` in a classmethod, or ``pool =
Pool(...)``.  The local must be bound once in the function; a class of the
standard library, or a class the file defines twice or nests, is not looked up
(asyncio's primitives' coroutine methods are known: ``event.wait()``)."""
import asyncio
from typing import Any, Optional


class Pool:
    def __init__(self, size: int = 1) -> None:
        self.size = size

    async def terminate(self) -> None:
        await asyncio.sleep(1)

    def closing(self) -> "asyncio.Future[None]":
        return asyncio.get_running_loop().create_future()

    @classmethod
    async def create(cls, size: int) -> "Pool":
        impl = cls(size)
        try:
            await asyncio.sleep(0)
        except BaseException:
            await asyncio.shield(impl.terminate())  # error: TRF004:19
            raise
        return impl

    @classmethod
    async def create_twice(cls, other: Any) -> None:
        impl = cls()
        if other is not None:
            impl = other
        await asyncio.shield(impl.terminate())

    @staticmethod
    async def static(cls: Any) -> None:
        impl = cls()
        await asyncio.shield(impl.terminate())


async def local_instance() -> None:
    pool = Pool(2)
    await asyncio.shield(pool.terminate())  # error: TRF004:11
    await asyncio.shield(pool.closing())
    waited: Optional["asyncio.Future[None]"] = None
    waited = asyncio.shield(pool.terminate())  # error: TRF004:14
    await waited


def kept_instance() -> "asyncio.Future[None]":
    pool = Pool(2)
    return asyncio.shield(pool.terminate())


async def stdlib_instance() -> None:
    event = asyncio.Event()
    await asyncio.shield(event.wait())  # error: TRF004:11 (asyncio's primitives are known)
