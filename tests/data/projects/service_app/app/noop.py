"""Coroutine functions another module spawns: one never suspends, the
others may (TRF001 of ``sessions.py``)."""
import asyncio


async def noop_coro() -> None:
    pass


async def settle() -> None:
    """It only updates state: it runs to its end in its task's first step."""
    global SETTLED
    SETTLED = True


async def slow() -> None:
    await asyncio.sleep(1)


async def relay() -> None:
    await slow()


def traced(func):  # type: ignore[no-untyped-def]
    return func


@traced
async def decorated() -> None:
    pass


SETTLED = False
