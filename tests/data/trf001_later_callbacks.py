"""A function of this file handed to the loop as a callback (issue 32):
``loop.call_soon(self.add_job, coro)`` runs ``self.add_job(coro)`` later and
drops what it returns (a ``Handle`` keeps no result), so a new task the function
returns, nobody keeping it, is lost.  ``call_soon``, ``call_soon_threadsafe``,
``call_later`` and ``call_at``.  Silent: a function that keeps its task, or
returns none; a name that is not a function of the file; ``run_in_executor``
(a thread calls it, and the future keeps what it returns)."""
import asyncio
from typing import Any, Coroutine, Set

from elsewhere import start_elsewhere  # type: ignore[import-not-found]

_background: Set["asyncio.Task[Any]"] = set()


def start(coro: "Coroutine[Any, Any, Any]") -> "asyncio.Task[Any]":
    return asyncio.create_task(coro)


def start_kept(coro: "Coroutine[Any, Any, Any]") -> "asyncio.Task[Any]":
    task = asyncio.create_task(coro)
    _background.add(task)
    task.add_done_callback(_background.discard)
    return task


def start_nothing(coro: "Coroutine[Any, Any, Any]") -> None:
    coro.close()


class Driver:
    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.tasks: Set["asyncio.Task[Any]"] = set()

    def async_add_job(self, target: Any, *args: Any) -> "asyncio.Task[Any]":
        if not asyncio.iscoroutine(target):
            target = target(*args)
        return self.loop.create_task(target)

    def async_add_kept_job(self, target: Any) -> "asyncio.Task[Any]":
        task = self.loop.create_task(target)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    def add_job(self, target: Any, *args: Any) -> None:
        self.loop.call_soon_threadsafe(self.async_add_job, target, *args)  # error: TRF001:40

    def add_kept_job(self, target: Any) -> None:
        self.loop.call_soon_threadsafe(self.async_add_kept_job, target)

    def add_later(self, delay: float, target: Any) -> None:
        self.loop.call_later(delay, self.async_add_job, target)  # error: TRF001:37
        self.loop.call_at(self.loop.time() + delay, self.async_add_job, target)  # error: TRF001:53

    def add_in_a_thread(self, target: Any) -> None:
        self.loop.run_in_executor(None, self.async_add_job, target)

    async def async_start(self, target: Any) -> "asyncio.Task[Any]":
        return self.loop.create_task(target)

    def add_coroutine(self, target: Any) -> None:
        self.loop.call_soon(self.async_start, target)


def schedule(loop: asyncio.AbstractEventLoop, coro: Any) -> None:
    loop.call_soon(start, coro)  # error: TRF001:20
    loop.call_soon(start_kept, coro)
    loop.call_soon(start_nothing, coro)
    loop.call_soon(start_elsewhere, coro)
    loop.call_soon(print, coro)
