"""Relative imports of the helpers named in the options."""
import asyncio

from . import tasks
from .deadline import deadline
from .tasks import fire_and_forget
from .tasks import fire_and_forget as faf
from .tasks import job


def start() -> None:
    fire_and_forget(job())  # error: TRF001:5
    tasks.fire_and_forget(job())  # error: TRF001:5
    faf(job())  # error: TRF001:5


async def timed() -> None:
    helper = asyncio.create_task(job())
    async with deadline(1):  # error: TRF003:16
        await job()
    await helper


def kept(background: "set[asyncio.Task[None]]") -> None:
    task = fire_and_forget(job())
    background.add(task)
    task.add_done_callback(background.discard)
