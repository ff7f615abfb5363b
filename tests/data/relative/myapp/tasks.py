"""The helper itself: its own module calls it too."""
import asyncio
from typing import Any, Coroutine


def fire_and_forget(coro: "Coroutine[Any, Any, None]") -> "asyncio.Task[None]":
    return asyncio.create_task(coro)


async def job() -> None:
    await asyncio.sleep(1)


def restart() -> None:
    fire_and_forget(job())  # error: TRF001:5
