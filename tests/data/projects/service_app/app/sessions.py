"""A task of a coroutine function of another module that never suspends
(slidge's ``shutdown(logout=False)`` returns ``create_task(noop_coro())``): it
runs to its end in its first step, while the loop's queue holds it, so it is
never pending unkept, as for one of this module.  Those that may suspend are
reported (one that awaits another coroutine counts as waiting: other modules
are followed one step)."""
import asyncio

from app import noop
from app.noop import decorated, relay, slow
from .noop import noop_coro, settle


def shutdown(loop: asyncio.AbstractEventLoop) -> None:
    loop.create_task(noop_coro())
    asyncio.ensure_future(settle())
    asyncio.create_task(decorated())
    loop.create_task(slow())  # error: TRF001:5
    loop.create_task(relay())  # error: TRF001:5
    loop.create_task(noop.slow())  # error: TRF001:5


def restart(loop: asyncio.AbstractEventLoop, noop_coro) -> None:  # type: ignore[no-untyped-def]
    loop.create_task(noop_coro())  # error: TRF001:5
