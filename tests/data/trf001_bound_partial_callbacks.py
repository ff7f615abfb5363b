"""``functools.partial(asyncio.create_task, coro)`` bound to a local of the
function, bound there once by a plain assignment, then handed to the loop as a
callback (``loop.call_later(t, callback)``): the loop calls it later and drops
the task it returns, as for the partial written in the call (aiozk's lease
release, a miss of the fourteenth trial).  Silent: a local bound twice, a
partial that wraps no spawner, a local kept rather than handed to the loop."""
import asyncio
from functools import partial


async def release() -> None:
    await asyncio.sleep(1)


def later(loop: asyncio.AbstractEventLoop, delay: float) -> None:
    callback = partial(asyncio.create_task, release())  # error: TRF001:24
    loop.call_later(delay, callback)


def soon(loop: asyncio.AbstractEventLoop) -> None:
    spawn = partial(loop.create_task, release())  # error: TRF001:21
    loop.call_soon(spawn)


def bound_twice(loop: asyncio.AbstractEventLoop, delay: float, quiet: bool) -> None:
    callback = partial(asyncio.create_task, release())
    if quiet:
        callback = partial(print, "quiet")
    loop.call_later(delay, callback)


def no_spawner(loop: asyncio.AbstractEventLoop, delay: float) -> None:
    callback = partial(print, "tick")
    loop.call_later(delay, callback)


def kept(handlers: list, delay: float) -> None:
    callback = partial(asyncio.create_task, release())
    handlers.append(callback)


def handed_twice(loop: asyncio.AbstractEventLoop, delay: float) -> None:
    callback = partial(asyncio.create_task, release())  # error: TRF001:24
    loop.call_later(delay, callback)
    loop.call_soon(callback)


def bound_on_another_branch(loop: asyncio.AbstractEventLoop, items: list) -> None:
    first = True
    for item in items:
        if first:
            callback = partial(asyncio.create_task, release())
            first = False
        else:
            loop.call_later(1, callback)  # (the value the next line binds)
        callback = partial(print, item)
