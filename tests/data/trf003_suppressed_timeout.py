"""TRF003: a timeout suppressed with contextlib.suppress, then the task cleaned up (issue 20).

``with suppress(TimeoutError): await asyncio.wait_for(...)`` followed by cleanup
is ``try/except TimeoutError: pass`` and the cleanup after it: silent.
"""
import asyncio
import contextlib
from contextlib import suppress
from contextlib import suppress as ignoring


async def job() -> None:
    await asyncio.sleep(1)


# ---- suppressed, then cleaned up: silent -------------------------------------------
async def contextlib_spelling(arrival: "asyncio.Future[None]") -> None:
    helper = asyncio.create_task(job())
    with contextlib.suppress(asyncio.TimeoutError):
        await asyncio.wait_for(arrival, timeout=1)
    helper.cancel()
    await asyncio.gather(helper, return_exceptions=True)


async def imported_spelling(arrival: "asyncio.Future[None]") -> None:
    helper = asyncio.create_task(job())
    with suppress(TimeoutError):
        await asyncio.wait_for(arrival, timeout=1)
    helper.cancel()


async def renamed_spelling(arrival: "asyncio.Future[None]") -> None:
    helper = asyncio.create_task(job())
    with ignoring(asyncio.TimeoutError, ValueError):
        await asyncio.wait_for(arrival, timeout=1)
    await helper


async def suppressed_timeout_block() -> None:
    helper = asyncio.create_task(job())
    with suppress(asyncio.TimeoutError):
        async with asyncio.timeout(1):
            await job()
    helper.cancel()


async def polled_until_done(arrival: "asyncio.Future[None]") -> None:
    helper = asyncio.create_task(job())
    while not helper.done():
        with suppress(asyncio.TimeoutError):
            await asyncio.wait_for(arrival, timeout=1)


# ---- look-alikes: reported ------------------------------------------------------------
async def suppressing_something_else(arrival: "asyncio.Future[None]") -> None:
    helper = asyncio.create_task(job())
    with suppress(ValueError):
        await asyncio.wait_for(arrival, timeout=1)  # error: TRF003:15
    helper.cancel()


async def no_cleanup_after_the_block(arrival: "asyncio.Future[None]") -> None:
    helper = asyncio.create_task(job())
    with suppress(asyncio.TimeoutError):
        await asyncio.wait_for(arrival, timeout=1)  # error: TRF003:15
        helper.cancel()
