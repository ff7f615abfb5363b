"""Classes the fixer must not break: slots, a base and its subclasses in one file,
overloaded and self-calling __init__, a nested class with a set of its own."""
import asyncio
from typing import overload

_background_tasks: set[asyncio.Task[object]] = set()


async def job() -> None:
    await asyncio.sleep(0.01)


class Slotted:
    __slots__ = ("x",)

    def __init__(self) -> None:
        self.x = 1

    def go(self) -> None:
        job_task = asyncio.create_task(job())
        _background_tasks.add(job_task)
        job_task.add_done_callback(_background_tasks.discard)
        del job_task


class Base:
    def __init__(self) -> None:
        self.a = 1
        self.start()

    def start(self) -> None:
        job_task = asyncio.create_task(job())
        _background_tasks.add(job_task)
        job_task.add_done_callback(_background_tasks.discard)
        del job_task


class Child(Base):
    def __init__(self) -> None:
        super().__init__()
        self.__background_tasks: set[asyncio.Task[object]] = set()
        self.b = 2

    def go(self) -> None:
        job_task = asyncio.create_task(job())
        self.__background_tasks.add(job_task)
        job_task.add_done_callback(self.__background_tasks.discard)
        del job_task


class Other(Base):
    def __init__(self) -> None:
        self.__background_tasks: set[asyncio.Task[object]] = set()
        self.c = 3

    def go(self) -> None:
        job_task = asyncio.create_task(job())
        self.__background_tasks.add(job_task)
        job_task.add_done_callback(self.__background_tasks.discard)
        del job_task


class Inherits(Base):
    def go(self) -> None:
        job_task = asyncio.create_task(job())
        _background_tasks.add(job_task)
        job_task.add_done_callback(_background_tasks.discard)
        del job_task


class Early:
    @overload
    def __init__(self, x: int) -> None: ...
    @overload
    def __init__(self, x: str) -> None: ...
    def __init__(self, x: object) -> None:
        self.__background_tasks: set[asyncio.Task[object]] = set()
        self.x = x
        self.h = self.start()

    def start(self) -> int:
        job_task = asyncio.create_task(job())
        self.__background_tasks.add(job_task)
        job_task.add_done_callback(self.__background_tasks.discard)
        del job_task
        return 1


class Outer:
    def __init__(self) -> None:
        self.__background_tasks: set[asyncio.Task[object]] = set()
        self.a = 1

    class Inner:
        def __init__(self) -> None:
            self.tasks: "set[asyncio.Task[None]]" = set()

        def go(self) -> None:
            t = asyncio.create_task(job())
            self.tasks.add(t)
            t.add_done_callback(self.tasks.discard)

    def go(self) -> None:
        job_task = asyncio.create_task(job())
        self.__background_tasks.add(job_task)
        job_task.add_done_callback(self.__background_tasks.discard)
        del job_task
