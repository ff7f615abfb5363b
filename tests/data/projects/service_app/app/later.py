"""Functions of other modules handed to the loop as callbacks (issue 32): the loop
drops what the callback returns, so a new task it returns is lost."""
import asyncio
from typing import Any

from app.jobs_base import JobsBase
from app.util import kept_spawn, spawn_logged

from .util import in_background


class Driver(JobsBase):
    def add_job(self, coro: Any) -> None:
        self.loop.call_soon_threadsafe(self.async_add_job, coro)  # error: TRF001:40

    def add_kept_job(self, coro: Any) -> None:
        self.loop.call_soon_threadsafe(self.async_add_kept_job, coro)


def schedule(loop: asyncio.AbstractEventLoop, coro: Any) -> None:
    loop.call_soon(spawn_logged, coro)  # error: TRF001:20
    loop.call_later(1.0, in_background, coro)  # error: TRF001:26
    loop.call_soon(kept_spawn, coro)
