"""A spawner handed to the loop as a callable, with the coroutine it is to be
called with: silent when that coroutine never suspends (its task runs to its end
in its first step, held by the loop's queue), as for a spawner called directly
(telnetlib3's SIGTERM handler, a false alarm of the sixteenth trial of issue 32).
``asyncio.run_coroutine_threadsafe`` so handed on takes the coroutine and the loop
(``call_later(2, asyncio.run_coroutine_threadsafe, self.refresh_input(), self._loop)``:
anthemav's, a false alarm of the twenty-fifth trial).
The twins: a coroutine that waits, several arguments, a done callback, a
``run_coroutine_threadsafe`` given a third argument."""
import asyncio
import functools
import signal


async def on_sigterm(server) -> None:
    server.close()


async def drain_then_close(server) -> None:
    await server.wait_closed()


def install(loop, server):
    loop.add_signal_handler(signal.SIGTERM, asyncio.ensure_future, on_sigterm(server))
    loop.call_soon(asyncio.ensure_future, on_sigterm(server))
    loop.call_later(1, functools.partial(asyncio.create_task, on_sigterm(server)))
    callback = functools.partial(asyncio.ensure_future, on_sigterm(server))
    loop.call_at(5, callback)


def install_twins(loop, server, extra):
    loop.add_signal_handler(signal.SIGTERM, asyncio.ensure_future, drain_then_close(server))  # error: TRF001:45
    loop.call_soon(asyncio.ensure_future, on_sigterm(server), *extra)  # error: TRF001:20
    loop.call_later(1, functools.partial(asyncio.create_task, drain_then_close(server)))  # error: TRF001:42
    callback = functools.partial(asyncio.ensure_future, drain_then_close(server))  # error: TRF001:34
    loop.call_at(5, callback)


class Receiver:
    def __init__(self, loop) -> None:
        self._loop = loop

    async def refresh_input(self) -> None:
        self.query("Z1ARC")

    async def poweron_refresh(self) -> None:
        await asyncio.sleep(2)

    def query(self, item: str) -> None:
        print(item)

    def data_received(self, extra) -> None:
        self._loop.call_later(2, asyncio.run_coroutine_threadsafe, self.refresh_input(), self._loop)
        self._loop.call_soon(functools.partial(asyncio.run_coroutine_threadsafe, self.refresh_input(), self._loop))

    def twins(self, extra) -> None:
        self._loop.call_later(1, asyncio.run_coroutine_threadsafe, self.poweron_refresh(), self._loop)  # error: TRF001:34
        self._loop.call_later(1, asyncio.run_coroutine_threadsafe, self.refresh_input(), self._loop, extra)  # error: TRF001:34
