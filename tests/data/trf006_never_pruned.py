# flake8-args: --extend-select=TRF006
"""TRF006 task-set-never-pruned (off by default): a long-lived collection only grows."""
import asyncio
from typing import Dict, List, Set

_TASKS: Set["asyncio.Task[None]"] = set()
_PRUNED: Set["asyncio.Task[None]"] = set()


async def job() -> None:
    await asyncio.sleep(1)


def start() -> None:
    task = asyncio.create_task(job())
    _TASKS.add(task)  # error: TRF006:5


def start_pruned() -> None:
    task = asyncio.create_task(job())
    _PRUNED.add(task)
    task.add_done_callback(_PRUNED.discard)


class Grows:
    def __init__(self) -> None:
        self.tasks: List["asyncio.Task[None]"] = []
        self.by_id: Dict[int, "asyncio.Task[None]"] = {}

    def start(self) -> None:
        self.tasks.append(asyncio.create_task(job()))  # error: TRF006:9
        task = asyncio.create_task(job())
        self.by_id[id(task)] = task  # error: TRF006:9


class Pruned:
    def __init__(self) -> None:
        self.tasks: Set["asyncio.Task[None]"] = set()
        self.by_id: Dict[int, "asyncio.Task[None]"] = {}
        self.running: List["asyncio.Task[None]"] = []
        self.other: Set["asyncio.Task[None]"] = set()

    def start(self) -> None:
        task = asyncio.create_task(job())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        self.by_id[id(task)] = task
        self.running.append(task)
        self.other.add(task)
        self.not_tasks = set()
        self.not_tasks.add(1)

    def forget(self, key: int) -> None:
        del self.by_id[key]

    def reset(self) -> None:
        self.running = []

    def prune(self) -> None:
        self.other -= {t for t in self.other if t.done()}


class Proxy:
    def __init__(self) -> None:
        self.connections: Dict[object, "asyncio.Task[None]"] = {}

    def start(self, conn: object) -> None:
        self.connections[conn] = asyncio.create_task(job())


class Connection:
    def __init__(self, proxy: Proxy) -> None:
        self.proxy = proxy

    def close(self) -> None:
        self.proxy.connections.pop(self, None)
