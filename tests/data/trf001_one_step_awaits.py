"""A coroutine whose only waits are awaits of coroutines that never suspend
never suspends either: its task runs to its end in its first step, while the
loop's queue holds it (docs/rules/TRF001.md).  The awaited coroutines are
followed through the file, a chain at a time; any of them that may wait, that
a subclass of the file may replace or an attribute may hide, that is a stub,
or that the analysis cannot find (another module's function, a parameter)
makes the spawn's task one that may wait, and it is reported.  (livekit's
``create_task(self._start_ivr_detection())``, which awaits only a start that
registers handlers, was a false alarm.)"""
import asyncio
from typing import Any, Awaitable, Callable

from elsewhere import remote_start  # type: ignore[import-not-found]


async def leaf() -> None:
    print("set up")


async def middle() -> None:
    await leaf()
    await leaf()


async def top() -> None:
    await middle()


async def waits() -> None:
    await asyncio.sleep(0.01)


async def middle_waits() -> None:
    await leaf()
    await waits()


async def ping() -> None:
    await pong()


async def pong() -> None:
    await ping()


async def remote() -> None:
    await remote_start()


async def handed(hook: Callable[[], Awaitable[None]]) -> None:
    await hook()


_shared = asyncio.Lock()  # (one made in the ``async with`` itself never waits: trf001_fresh_lock.py)


async def later_waits() -> None:
    await leaf()
    async with _shared:
        print("held")


def fire() -> None:
    asyncio.create_task(middle())
    asyncio.create_task(top())
    asyncio.ensure_future(ping())  # a cycle that nothing else in it waits in
    asyncio.create_task(middle_waits())  # error: TRF001:5
    asyncio.create_task(remote())  # error: TRF001:5
    asyncio.create_task(handed(leaf))  # error: TRF001:5
    asyncio.create_task(later_waits())  # error: TRF001:5


class Device:
    def __init__(self) -> None:
        self.ready = False
        self.hook: Any = None

    def begin(self) -> None:
        asyncio.create_task(self._start())
        asyncio.create_task(self._start_slowly())  # error: TRF001:9
        asyncio.create_task(self._start_hooked())  # error: TRF001:9
        asyncio.create_task(self._start_replaced())  # error: TRF001:9
        asyncio.create_task(self._start_stub())  # error: TRF001:9

    async def _start(self) -> None:
        await self._mark()
        self.ready = True
        await middle()

    async def _start_slowly(self) -> None:
        await self._mark()
        await self._settle()

    async def _start_hooked(self) -> None:
        await self.on_ready()

    async def _start_replaced(self) -> None:
        await self._refresh()

    async def _start_stub(self) -> None:
        await self._hook()

    async def _mark(self) -> None:
        self.ready = True

    async def _settle(self) -> None:
        await asyncio.sleep(0.01)

    async def on_ready(self) -> None:
        self.ready = True

    def install(self, callback: Any) -> None:
        self.on_ready = callback  # the attribute hides the method

    async def _refresh(self) -> None:
        self.ready = True

    async def _hook(self) -> None:
        """A hook a subclass overrides."""


class Remote(Device):
    async def _refresh(self) -> None:  # the subclass's method waits
        await asyncio.sleep(0.01)
