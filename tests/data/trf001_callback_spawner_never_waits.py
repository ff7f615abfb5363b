"""A spawner handed to the loop as a callable, with the coroutine it is to be
called with: silent when that coroutine never suspends (its task runs to its end
in its first step, held by the loop's queue), as for a spawner called directly
(telnetlib3's SIGTERM handler, a false alarm of the sixteenth trial of issue 32).
The twins: a coroutine that waits, several arguments, a done callback."""
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
