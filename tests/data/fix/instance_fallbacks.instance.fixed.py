"""With --fix-keep instance: classes that cannot hold a set of their own (the
task goes into the module set, and the note says why), beside one that can."""
import asyncio
import enum
from dataclasses import dataclass
from typing import NamedTuple, Protocol

_background_tasks: "set[asyncio.Task[object]]" = set()


async def job() -> None:
    await asyncio.sleep(0.01)


class Plain:
    def __init__(self) -> None:
        self.__background_tasks: set[asyncio.Task[object]] = set()
        self.n = 0

    def go(self) -> None:
        job_task = asyncio.create_task(job())
        self.__background_tasks.add(job_task)
        job_task.add_done_callback(self.__background_tasks.discard)
        del job_task


class Slotted:
    __slots__ = ("n",)

    def __init__(self) -> None:
        self.n = 0

    def go(self) -> None:
        job_task = asyncio.create_task(job())
        _background_tasks.add(job_task)
        job_task.add_done_callback(_background_tasks.discard)
        del job_task


@dataclass(slots=True)
class SlottedData:
    n: int = 0

    def go(self) -> None:
        job_task = asyncio.create_task(job())
        _background_tasks.add(job_task)
        job_task.add_done_callback(_background_tasks.discard)
        del job_task


@dataclass(frozen=True)
class Frozen:
    n: int = 0

    def go(self) -> None:
        job_task = asyncio.create_task(job())
        _background_tasks.add(job_task)
        job_task.add_done_callback(_background_tasks.discard)
        del job_task


class Point(NamedTuple):
    x: int

    def go(self) -> None:
        job_task = asyncio.create_task(job())
        _background_tasks.add(job_task)
        job_task.add_done_callback(_background_tasks.discard)
        del job_task


class Color(enum.Enum):
    RED = 1

    def go(self) -> None:
        job_task = asyncio.create_task(job())
        _background_tasks.add(job_task)
        job_task.add_done_callback(_background_tasks.discard)
        del job_task


class Startable(Protocol):
    def go(self) -> None:
        job_task = asyncio.create_task(job())
        _background_tasks.add(job_task)
        job_task.add_done_callback(_background_tasks.discard)
        del job_task


class Meta(type):
    pass


class WithMeta(metaclass=Meta):
    def __init__(self) -> None:
        self.n = 0

    def go(self) -> None:
        job_task = asyncio.create_task(job())
        _background_tasks.add(job_task)
        job_task.add_done_callback(_background_tasks.discard)
        del job_task


class Guarded:
    def __init__(self) -> None:
        self.n = 0

    def __setattr__(self, name: str, value: object) -> None:
        object.__setattr__(self, name, value)

    def go(self) -> None:
        job_task = asyncio.create_task(job())
        _background_tasks.add(job_task)
        job_task.add_done_callback(_background_tasks.discard)
        del job_task


class NoInit:
    def go(self) -> None:
        job_task = asyncio.create_task(job())
        _background_tasks.add(job_task)
        job_task.add_done_callback(_background_tasks.discard)
        del job_task

    @staticmethod
    def helper() -> None:
        job_task = asyncio.create_task(job())
        _background_tasks.add(job_task)
        job_task.add_done_callback(_background_tasks.discard)
        del job_task


class EarlyCall:
    def __init__(self) -> None:
        self.go()
        super().__init__()

    def go(self) -> None:
        job_task = asyncio.create_task(job())
        _background_tasks.add(job_task)
        job_task.add_done_callback(_background_tasks.discard)
        del job_task


class SpawnsFirst:
    def __init__(self) -> None:
        job_task = asyncio.create_task(job())
        _background_tasks.add(job_task)
        job_task.add_done_callback(_background_tasks.discard)
        del job_task
        super().__init__()
        self.__background_tasks: set[asyncio.Task[object]] = set()
        job_task_1 = asyncio.create_task(job())
        self.__background_tasks.add(job_task_1)
        job_task_1.add_done_callback(self.__background_tasks.discard)
        del job_task_1


class BuiltByNew:
    def __new__(cls) -> "BuiltByNew":
        instance = super().__new__(cls)
        job_task = asyncio.get_event_loop().create_task(job())
        _background_tasks.add(job_task)
        job_task.add_done_callback(_background_tasks.discard)
        del job_task
        return instance

    def __init_subclass__(cls) -> None:
        job_task = asyncio.get_event_loop().create_task(job())
        _background_tasks.add(job_task)
        job_task.add_done_callback(_background_tasks.discard)
        del job_task


class Finalised:
    def __init__(self) -> None:
        self.n = 0

    def __del__(self) -> None:
        job_task = asyncio.get_event_loop().create_task(job())
        _background_tasks.add(job_task)
        job_task.add_done_callback(_background_tasks.discard)
        del job_task


class Parent:
    def __init__(self) -> None:
        self.n = 0

    def go(self) -> None:
        job_task = asyncio.create_task(job())
        _background_tasks.add(job_task)
        job_task.add_done_callback(_background_tasks.discard)
        del job_task


class SkipsParentInit(Parent):
    def __init__(self) -> None:
        self.m = 1


class ReturnsEarly:
    def __init__(self, config: object = None) -> None:
        self.__background_tasks: set[asyncio.Task[object]] = set()
        if config is None:
            return
        self.config = config

    def go(self) -> None:
        job_task = asyncio.create_task(job())
        self.__background_tasks.add(job_task)
        job_task.add_done_callback(self.__background_tasks.discard)
        del job_task


class AlternativeConstructor:
    def __init__(self) -> None:
        self.n = 0

    @classmethod
    def blank(cls) -> "AlternativeConstructor":
        return cls.__new__(cls)

    def go(self) -> None:
        job_task = asyncio.create_task(job())
        _background_tasks.add(job_task)
        job_task.add_done_callback(_background_tasks.discard)
        del job_task


class Untyped:
    def __init__(self):
        self.__background_tasks = set()
        self.n = 0

    def go(self):
        job_task = asyncio.create_task(job())
        self.__background_tasks.add(job_task)
        job_task.add_done_callback(self.__background_tasks.discard)
        del job_task
