"""TRF007, a wait between a spawn and the ``try`` that finishes it: an ``async
with`` whose ``__aenter__`` and ``__aexit__`` never suspend (no ``await``, ``async
for`` or ``async with`` in their bodies) is no wait (emcache's ``OpTimeout``, which
only arms a timer: a false alarm of the thirty-ninth trial).  No cancellation can
come from it, and what it raises is a callee's, as any call's.  An ``await`` of a
coroutine is a wait, whatever its body does."""
import asyncio
import functools
from typing import Any, Callable, List


async def fetch(node: Any) -> Any:
    return await node.fetch()


def traced(func: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(func)
    async def wrapper(*args: Any) -> Any:
        await asyncio.sleep(0)
        return await func(*args)
    return wrapper


class OpTimeout:
    def __init__(self, timeout: float, loop: Any) -> None:
        self._timeout = timeout
        self._loop = loop
        self._handle: Any = None

    async def __aenter__(self) -> "OpTimeout":
        self._handle = self._loop.call_later(self._timeout, print)
        return self

    async def __aexit__(self, *exc: Any) -> None:
        self._handle.cancel()


class YieldsOnce:
    async def __aenter__(self) -> None:
        await asyncio.sleep(0)  # (a cancellation can come here)

    async def __aexit__(self, *exc: Any) -> None:
        return None


class LeavesWaiting:
    async def __aenter__(self) -> None:
        return None

    async def __aexit__(self, *exc: Any) -> None:
        await asyncio.sleep(1)


def wrapped(cls: Any) -> Any:
    return cls


@wrapped
class Decorated:
    async def __aenter__(self) -> None:
        return None

    async def __aexit__(self, *exc: Any) -> None:
        return None


class Connecting:
    async def __aenter__(self) -> None:
        await asyncio.sleep(0.1)

    async def __aexit__(self, *exc: Any) -> None:
        return None


class Traced:
    @traced
    async def __aenter__(self) -> None:
        return None

    async def __aexit__(self, *exc: Any) -> None:
        return None


async def arm() -> None:
    print("armed")


async def connect() -> None:
    await asyncio.sleep(0.1)


# ---- a wait that may suspend between the spawn and the try: reported ------------
async def waiting_entry(loop: Any, nodes: List[Any]) -> None:
    tasks = [loop.create_task(fetch(node)) for node in nodes]  # error: TRF007:14
    async with Connecting():
        try:
            await asyncio.gather(*tasks)
        except Exception:
            for task in tasks:
                task.cancel()
            raise


async def decorated_entry(loop: Any, nodes: List[Any]) -> None:
    tasks = [loop.create_task(fetch(node)) for node in nodes]  # error: TRF007:14
    async with Traced():
        try:
            await asyncio.gather(*tasks)
        except Exception:
            for task in tasks:
                task.cancel()
            raise


async def waiting_call(client: Any) -> None:
    keepalive = asyncio.create_task(fetch(client))  # error: TRF007:17
    await connect()
    try:
        await client.run()
    finally:
        keepalive.cancel()


async def quiet_entry_then_a_wait(loop: Any, nodes: List[Any]) -> None:
    tasks = [loop.create_task(fetch(node)) for node in nodes]  # error: TRF007:14
    async with OpTimeout(1.0, loop):
        await connect()
        try:
            await asyncio.gather(*tasks)
        except Exception:
            for task in tasks:
                task.cancel()
            raise


async def yields_once(loop: Any, nodes: List[Any]) -> None:
    tasks = [loop.create_task(fetch(node)) for node in nodes]  # error: TRF007:14
    async with YieldsOnce():
        try:
            await asyncio.gather(*tasks)
        except Exception:
            for task in tasks:
                task.cancel()
            raise


async def leaves_waiting(loop: Any, nodes: List[Any]) -> None:
    tasks = [loop.create_task(fetch(node)) for node in nodes]  # error: TRF007:14
    async with LeavesWaiting():
        pass
    try:
        await asyncio.gather(*tasks)
    except Exception:
        for task in tasks:
            task.cancel()
        raise


async def decorated_class(loop: Any, nodes: List[Any]) -> None:
    tasks = [loop.create_task(fetch(node)) for node in nodes]  # error: TRF007:14
    async with Decorated():
        try:
            await asyncio.gather(*tasks)
        except Exception:
            for task in tasks:
                task.cancel()
            raise


async def quiet_call(client: Any) -> None:
    keepalive = asyncio.create_task(fetch(client))  # error: TRF007:17
    await arm()
    try:
        await client.run()
    finally:
        keepalive.cancel()


# ---- safe look-alikes: no finding ------------------------------------------------
async def quiet_entry(loop: Any, nodes: List[Any]) -> List[Any]:
    tasks = [loop.create_task(fetch(node)) for node in nodes]
    async with OpTimeout(1.0, loop):
        try:
            await asyncio.gather(*tasks)
        except Exception:
            for task in tasks:
                task.cancel()
            raise
    return [task.result() for task in tasks]


async def quiet_block_then_try(loop: Any, nodes: List[Any]) -> None:
    tasks = [loop.create_task(fetch(node)) for node in nodes]
    async with OpTimeout(1.0, loop):
        pass
    try:
        await asyncio.gather(*tasks)
    except Exception:
        for task in tasks:
            task.cancel()
        raise
