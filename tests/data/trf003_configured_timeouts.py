# flake8-args: --taskref-timeouts=async_timeout.timeout,myapp.deadline
"""TRF003 with --taskref-timeouts: extra timeout helpers."""
import asyncio

import async_timeout  # type: ignore[import-not-found]
import myapp  # type: ignore[import-not-found]


async def job() -> None:
    await asyncio.sleep(1)


async def third_party_timeout() -> None:
    helper = asyncio.create_task(job())
    async with async_timeout.timeout(1):  # error: TRF003:16
        await job()
    await helper


async def awaited_helper(arrival: "asyncio.Future[bytes]") -> None:
    helper = asyncio.create_task(job())
    await myapp.deadline(arrival, 5)  # error: TRF003:11
    await helper


async def guarded() -> None:
    helper = asyncio.create_task(job())
    try:
        async with async_timeout.timeout(1):
            await job()
    finally:
        helper.cancel()
