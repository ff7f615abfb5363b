"""Grammar coverage: parenthesized context managers (3.10)."""
import asyncio
import contextlib
from typing import Any


async def job(value: Any = None) -> Any:
    await asyncio.sleep(0)
    return value


async def managers(lock: asyncio.Lock, other: asyncio.Lock) -> None:
    async with (
        lock,
        other as held,
    ):
        asyncio.create_task(job(held))
    with (
        contextlib.suppress(KeyError) as a,
        contextlib.suppress(ValueError),
    ):
        task = asyncio.create_task(job(a))
        await task
    with (contextlib.nullcontext(asyncio.create_task(job())) as t):
        await t
