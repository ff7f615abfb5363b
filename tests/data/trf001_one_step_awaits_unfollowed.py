"""The awaited calls that are not followed (``coroutines._followed``): a name
that an import binds (a fallback definition, an import in the function) or that
a function declares ``global``; a method through a ``self`` bound again, or in a
function nested in a method; a method a class of the file deriving from the
class may take from another base first in its order; a decorated coroutine (a
``@retry`` may sleep); and an ``async for`` in a comprehension, which waits.
Each spawn's coroutine is taken to wait, and the spawn is reported; a nested
coroutine that awaits one that never waits is followed (silent), and
``_ = seen.append(1)`` is no stub.  (A fresh-eyes review of the change that
follows awaited calls.)"""
import asyncio
import functools
from typing import Any, AsyncIterator, Callable, List

try:
    from fastlib import fallback  # type: ignore[import-not-found]
except ImportError:
    async def fallback() -> None:
        print("the slow way")


async def quiet() -> None:
    print("set up")


async def slow() -> None:
    await asyncio.sleep(0.01)


def in_thread(fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(fn)
    async def wrapper(*args: Any) -> Any:
        return await asyncio.to_thread(lambda: asyncio.run(fn(*args)))
    return wrapper


@in_thread
async def decorated() -> None:
    print("in a thread")


async def ticks() -> AsyncIterator[int]:
    for tick in range(3):
        await asyncio.sleep(0.01)
        yield tick


async def collect() -> List[int]:
    return [tick async for tick in ticks()]


async def helper() -> None:
    print("quiet until installed")


def install() -> None:
    global helper
    helper = slow


seen: List[int] = []


async def note() -> None:
    _ = seen.append(1)


async def run_fallback() -> None:
    await fallback()


async def run_imported() -> None:
    from elsewhere import quiet  # type: ignore[import-not-found]
    await quiet()


async def run_decorated() -> None:
    await decorated()


async def run_collect() -> None:
    await collect()


async def run_helper() -> None:
    await helper()


async def run_note() -> None:
    await note()


def fire() -> None:
    asyncio.create_task(run_fallback())  # error: TRF001:5
    asyncio.create_task(run_imported())  # error: TRF001:5
    asyncio.create_task(run_decorated())  # error: TRF001:5
    asyncio.create_task(run_collect())  # error: TRF001:5
    asyncio.create_task(run_helper())  # error: TRF001:5
    asyncio.create_task(run_note())

    async def nested() -> None:
        await quiet()

    asyncio.create_task(nested())


class Peer:
    async def flush(self) -> None:
        await asyncio.sleep(0.01)


class Conn:
    def __init__(self, peer: Peer) -> None:
        self.peer = peer

    async def flush(self) -> None:
        print("flushed")

    async def run(self) -> None:
        self = self.peer  # type: ignore[assignment]
        await self.flush()

    def go(self) -> None:
        asyncio.create_task(self.run())  # error: TRF001:9

        async def inner(self: Peer) -> None:
            await self.flush()

        asyncio.create_task(inner(self.peer))  # error: TRF001:9


class SlowMixin:
    async def step(self) -> None:
        await asyncio.sleep(0.01)


class Base:
    async def step(self) -> None:
        print("stepped")

    async def run(self) -> None:
        await self.step()

    def go(self) -> None:
        asyncio.create_task(self.run())  # error: TRF001:9


class Child(SlowMixin, Base):
    pass
