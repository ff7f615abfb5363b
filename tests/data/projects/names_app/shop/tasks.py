"""Spawner helpers that keep their task only when a parameter says so."""
import asyncio
from typing import Any, Set

_tasks: Set["asyncio.Task[Any]"] = set()


def spawn(coro: Any, keep_ref: bool = False) -> "asyncio.Task[Any]":
    task = asyncio.create_task(coro)
    if keep_ref:
        _tasks.add(task)
        task.add_done_callback(_tasks.discard)
    return task


def spawn_again(coro: Any) -> "asyncio.Task[Any]":
    return spawn(coro)


class Runner:
    def __init__(self) -> None:
        self._tasks: Set["asyncio.Task[Any]"] = set()

    def run(self, coro: Any, *, detached: bool = True) -> "asyncio.Task[Any]":
        task = asyncio.create_task(coro)
        if not detached:
            self._tasks.add(task)
        return task


async def start_later(coro: Any, keep_ref: bool = False) -> "asyncio.Task[Any]":
    """A coroutine function that keeps its task when a parameter says so:
    ``await start_later(...)`` is not followed, whatever it is given."""
    await asyncio.sleep(0)
    task = asyncio.create_task(coro)
    if keep_ref:
        _tasks.add(task)
    return task


async def run_to_end(coro: Any) -> "asyncio.Task[Any]":
    """It waits for its task before it returns it: the task is done."""
    task = asyncio.create_task(coro)
    await task
    return task
