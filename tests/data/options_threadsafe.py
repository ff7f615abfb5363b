# flake8-args: --taskref-spawners=asyncio.run_coroutine_threadsafe
"""run_coroutine_threadsafe is a spawner only when the user asks for it."""
import asyncio


async def job() -> None:
    await asyncio.sleep(1)


def submit(loop: asyncio.AbstractEventLoop) -> "object":
    asyncio.run_coroutine_threadsafe(job(), loop)  # error: TRF001:5
    future = asyncio.run_coroutine_threadsafe(job(), loop)
    return future
