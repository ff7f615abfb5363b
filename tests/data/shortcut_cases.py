# flake8-args: --extend-select=TRF006
"""Shapes the text shortcut must not lose: functions whose own text holds no
spawner word, but whose findings depend on the rest of the module."""
import asyncio
from asyncio import create_task as fire
from asyncio import ensure_future as sure
from typing import Set


async def job() -> None:
    await asyncio.sleep(1)


def aliased_spawner() -> None:
    fire(job())  # error: TRF001:5


def aliased_by_a_part_of_its_name() -> None:
    # the alias is a part of the name it imports, and no spawner word itself
    sure(job())  # error: TRF001:5


class UsesALateLoop:
    def __init__(self) -> None:
        self.io = EV

    def start(self) -> None:
        self.io.create_task(job())  # error: TRF001:9


async def method_of_a_local_class_captures() -> None:
    task = asyncio.create_task(job())

    class Stopper:
        def stop(self) -> None:
            task.cancel()

    Stopper().stop()


class PrunedByReassignment:
    def __init__(self) -> None:
        self.tasks: Set["asyncio.Task[None]"] = set()

    def start(self) -> None:
        self.tasks.add(asyncio.create_task(job()))

    def reset(self) -> None:
        self.tasks = set()


class SharesTheNameWithAPrunedOne:
    # PrunedByReassignment.reset() replaces its own ``self.tasks``, not this one.
    def __init__(self) -> None:
        self.tasks: Set["asyncio.Task[None]"] = set()

    def start(self) -> None:
        self.tasks.add(asyncio.create_task(job()))  # error: TRF006:9


class HandsItsSetOn:
    def __init__(self) -> None:
        self.pending: Set["asyncio.Task[None]"] = set()

    def start(self) -> None:
        self.pending.add(asyncio.create_task(job()))  # error: TRF006:9

    def share(self, other: "HandsItsSetOn") -> None:
        other.pending = self.pending  # shares the set, prunes nothing


class ResetsThroughATupleTarget:
    def __init__(self) -> None:
        self.running: Set["asyncio.Task[None]"] = set()
        self.count = 0

    def start(self) -> None:
        self.running.add(asyncio.create_task(job()))

    def reset(self) -> None:
        self.running, self.count = set(), 0  # replaces the set: prunes it


_background: Set["asyncio.Task[None]"] = set()


def spawn_in_background() -> None:
    _background.add(asyncio.create_task(job()))


def forget_background() -> None:
    global _background
    _background = set()


class NeverPruned:
    def __init__(self) -> None:
        self.jobs: Set["asyncio.Task[None]"] = set()

    def start(self) -> None:
        self.jobs.add(asyncio.create_task(job()))  # error: TRF006:9

    def size(self) -> int:
        return len(self.jobs)


EV = asyncio.new_event_loop()


class UsesAnAliasOfALaterLoop:
    def setup(self) -> None:
        self.wire = FORWARD  # FORWARD is an alias of the other module name

    def run(self) -> None:
        self.wire.create_task(job())  # error: TRF001:9


FORWARD = LATER_LOOP
LATER_LOOP = asyncio.new_event_loop()
