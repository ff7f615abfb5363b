"""A function that returns a new local list or set it fills with new tasks
(``tasks = []``, ``tasks.append(asyncio.create_task(c))``, ``return tasks``)
returns new tasks nobody keeps (issue 32), as one returning a list display or
comprehension does.  Silent: a list kept or awaited elsewhere too, a list that
is not new (a parameter, an attribute), one bound twice."""
import asyncio
from typing import Any, Iterable, List, Set

background: Set["asyncio.Task[Any]"] = set()


class Pool:
    def __init__(self) -> None:
        self._all: List["asyncio.Task[Any]"] = []

    def start_all(self, coros: Iterable[Any]) -> List["asyncio.Task[Any]"]:
        tasks = []
        for coro in coros:
            tasks.append(asyncio.create_task(coro))
        return tasks

    def start_set(self, coros: Iterable[Any]) -> Set["asyncio.Task[Any]"]:
        tasks: Set["asyncio.Task[Any]"] = set()
        for coro in coros:
            tasks.add(asyncio.ensure_future(coro()))
        return tasks

    def start_typed(self, coros: Iterable[Any]) -> List["asyncio.Task[Any]"]:
        tasks: List["asyncio.Task[Any]"] = list()
        for coro in coros:
            tasks.append(asyncio.create_task(coro))
        return tasks

    def start_kept(self, coros: Iterable[Any]) -> List["asyncio.Task[Any]"]:
        tasks: List["asyncio.Task[Any]"] = []
        for coro in coros:
            tasks.append(asyncio.create_task(coro))
        self._all.extend(tasks)
        return tasks

    def start_into(self, coros: Iterable[Any], tasks: List[Any]) -> List[Any]:
        for coro in coros:
            tasks.append(asyncio.create_task(coro))
        return tasks

    def start_rebound(self, coros: Iterable[Any]) -> List[Any]:
        tasks: List[Any] = []
        for coro in coros:
            tasks.append(asyncio.create_task(coro))
        if not tasks:
            tasks = list(background)
        return tasks

    def go(self, coros: List[Any]) -> None:
        self.start_all(coros)  # error: TRF001:9
        self.start_set(coros)  # error: TRF001:9
        self.start_typed(coros)  # error: TRF001:9
        self.start_kept(coros)
        self.start_into(coros, [])
        self.start_rebound(coros)
        kept = self.start_all(coros)
        background.update(kept)
