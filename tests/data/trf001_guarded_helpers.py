"""Helpers that keep the task they return only when a parameter says so (issue
32): each call is judged by the argument it gives (a constant, or the
parameter's constant default when it gives none); a call whose argument is not
a constant stays silent, as does a helper whose keeping depends on anything else."""
import asyncio
from typing import Any, Set

_tasks: Set["asyncio.Task[Any]"] = set()


async def job() -> None:
    await asyncio.sleep(1)


def spawn(coro: Any, keep_ref: bool = False) -> "asyncio.Task[Any]":
    task = asyncio.create_task(coro)
    if keep_ref:
        _tasks.add(task)
        task.add_done_callback(_tasks.discard)
    return task


def start(coro: Any, *, detached: bool = True) -> "asyncio.Task[Any]":
    task = asyncio.create_task(coro)
    if not detached:
        _tasks.add(task)
    return task


def keep_on_flag(coro: Any, flags: Any) -> "asyncio.Task[Any]":
    task = asyncio.create_task(coro)
    if flags.keep:
        _tasks.add(task)
    return task


def keep_rebound(coro: Any, keep: bool = False) -> "asyncio.Task[Any]":
    keep = keep or bool(_tasks)
    task = asyncio.create_task(coro)
    if keep:
        _tasks.add(task)
    return task


class Service:
    def __init__(self) -> None:
        self._tasks: Set["asyncio.Task[Any]"] = set()

    def run(self, coro: Any, keep: Any = None) -> "asyncio.Task[Any]":
        task = asyncio.create_task(coro)
        if keep:
            self._tasks.add(task)
        return task

    async def serve(self, flag: bool) -> None:
        self.run(job())  # error: TRF001:9
        self.run(job(), False)  # error: TRF001:9
        self.run(job(), True)
        self.run(job(), keep=flag)
        self.run(job(), keep="yes")


async def main(flag: bool, options: Any) -> None:
    spawn(job())  # error: TRF001:5
    spawn(job(), keep_ref=False)  # error: TRF001:5
    spawn(job(), False)  # error: TRF001:5
    start(job())  # error: TRF001:5
    waiting = spawn(job())  # error: TRF002:15
    waiting.add_done_callback(print)
    spawn(job(), keep_ref=True)
    spawn(job(), True)
    spawn(job(), keep_ref=flag)
    spawn(job(), **options)
    start(job(), detached=False)
    keep_on_flag(job(), options)
    keep_rebound(job())
    kept = spawn(job())
    await kept
