# flake8-args: --extend-select=TRF008
"""TRF008: a ``suppress()`` whose classes cannot be read (``suppress(*errors)``)
may suppress the gathered task's failure, and the code after it finishes the
others: silent, as a named one is (fresh-eyes review of issue 32).  Its twin
without the ``suppress`` is reported."""
import asyncio
import contextlib

ERRORS = (ValueError,)


async def job(x: float) -> None:
    await asyncio.sleep(x)


async def unreadable() -> None:
    a = asyncio.create_task(job(1))
    b = asyncio.create_task(job(2))
    with contextlib.suppress(*ERRORS):
        await asyncio.gather(a, b)
    a.cancel()
    b.cancel()
    await asyncio.gather(a, b, return_exceptions=True)


async def named() -> None:
    a = asyncio.create_task(job(1))
    b = asyncio.create_task(job(2))
    with contextlib.suppress(ValueError):
        await asyncio.gather(a, b)
    a.cancel()
    b.cancel()
    await asyncio.gather(a, b, return_exceptions=True)


async def unsuppressed() -> None:
    a = asyncio.create_task(job(1))
    b = asyncio.create_task(job(2))
    await asyncio.gather(a, b)  # error: TRF008:11
    a.cancel()
    b.cancel()
    await asyncio.gather(a, b, return_exceptions=True)
