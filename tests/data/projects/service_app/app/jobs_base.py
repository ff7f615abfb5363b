"""A base class whose method returns a fresh task nobody keeps, beside one that keeps it."""
import asyncio
from typing import Any, Set


class JobsBase:
    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.jobs: Set["asyncio.Task[Any]"] = set()

    def async_add_job(self, coro: Any) -> "asyncio.Task[Any]":
        return self.loop.create_task(coro)

    def async_add_kept_job(self, coro: Any) -> "asyncio.Task[Any]":
        task = self.loop.create_task(coro)
        self.jobs.add(task)
        task.add_done_callback(self.jobs.discard)
        return task
