"""A mixin whose method returns a new list it fills with new tasks."""
import asyncio
from typing import Any, Iterable, List


class PoolMixin:
    def start_all(self, coros: Iterable[Any]) -> List["asyncio.Task[Any]"]:
        tasks = []
        for coro in coros:
            tasks.append(asyncio.create_task(coro))
        return tasks

    def start_kept(self, coros: Iterable[Any], into: List[Any]) -> List["asyncio.Task[Any]"]:
        tasks = []
        for coro in coros:
            tasks.append(asyncio.create_task(coro))
        into.extend(tasks)
        return tasks
