"""``asyncio.ensure_future(name)`` makes a new task when the local holds a
coroutine: bound once to a coroutine method of an event loop, a coroutine
function of asyncio, or a coroutine function of this file (an SNMP transport's
``coro = self.loop.create_connection(...)`` then a bare ``ensure_future(coro)``,
seventh trial of issue 32; Ruff's RUF006 reports it too).  Any other name may hold
a future, which ``ensure_future`` returns unchanged: not reported."""
import asyncio


async def work() -> None:
    await asyncio.sleep(1)


class Transport:
    def __init__(self, loop: asyncio.AbstractEventLoop, factory) -> None:
        self.loop = loop
        self.factory = factory
        self.pool = factory

    def send(self, host: str) -> None:
        coro = self.loop.create_connection(self.factory, host=host, port=161)
        asyncio.ensure_future(coro)  # error: TRF001:9

    def send_pool(self, host: str) -> None:
        conn = self.pool.create_connection(host)  # not a loop: may be anything
        asyncio.ensure_future(conn)

    def own(self) -> None:
        coro = self._run()
        asyncio.ensure_future(coro)  # error: TRF001:9

    def module_level(self) -> None:
        coro = work()
        asyncio.ensure_future(coro)  # error: TRF001:9
        nap = asyncio.sleep(1)
        asyncio.ensure_future(nap)  # error: TRF001:9

    def futures(self, given) -> None:
        fut = self.loop.create_future()
        asyncio.ensure_future(fut)
        asyncio.ensure_future(given)
        either = work()
        if given:
            either = self.loop.create_future()
        asyncio.ensure_future(either)

    def kept(self) -> "asyncio.Future[None]":
        coro = self._run()
        return asyncio.ensure_future(coro)

    async def _run(self) -> None:
        await asyncio.sleep(1)
