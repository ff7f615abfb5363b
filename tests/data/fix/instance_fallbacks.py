"""With --fix-keep instance: classes that cannot hold a set of their own (the
task goes into the module set, and the note says why), beside one that can."""
import asyncio
import enum
from dataclasses import dataclass
from typing import NamedTuple, Protocol


async def job() -> None:
    await asyncio.sleep(0.01)


class Plain:
    def __init__(self) -> None:
        self.n = 0

    def go(self) -> None:
        asyncio.create_task(job())


class Slotted:
    __slots__ = ("n",)

    def __init__(self) -> None:
        self.n = 0

    def go(self) -> None:
        asyncio.create_task(job())


@dataclass(slots=True)
class SlottedData:
    n: int = 0

    def go(self) -> None:
        asyncio.create_task(job())


@dataclass(frozen=True)
class Frozen:
    n: int = 0

    def go(self) -> None:
        asyncio.create_task(job())


class Point(NamedTuple):
    x: int

    def go(self) -> None:
        asyncio.create_task(job())


class Color(enum.Enum):
    RED = 1

    def go(self) -> None:
        asyncio.create_task(job())


class Startable(Protocol):
    def go(self) -> None:
        asyncio.create_task(job())


class Meta(type):
    pass


class WithMeta(metaclass=Meta):
    def __init__(self) -> None:
        self.n = 0

    def go(self) -> None:
        asyncio.create_task(job())


class Guarded:
    def __init__(self) -> None:
        self.n = 0

    def __setattr__(self, name: str, value: object) -> None:
        object.__setattr__(self, name, value)

    def go(self) -> None:
        asyncio.create_task(job())


class NoInit:
    def go(self) -> None:
        asyncio.create_task(job())

    @staticmethod
    def helper() -> None:
        asyncio.create_task(job())


class EarlyCall:
    def __init__(self) -> None:
        self.go()
        super().__init__()

    def go(self) -> None:
        asyncio.create_task(job())


class SpawnsFirst:
    def __init__(self) -> None:
        asyncio.create_task(job())
        super().__init__()
        asyncio.create_task(job())


class BuiltByNew:
    def __new__(cls) -> "BuiltByNew":
        instance = super().__new__(cls)
        asyncio.get_event_loop().create_task(job())
        return instance

    def __init_subclass__(cls) -> None:
        asyncio.get_event_loop().create_task(job())


class Finalised:
    def __init__(self) -> None:
        self.n = 0

    def __del__(self) -> None:
        asyncio.get_event_loop().create_task(job())


class Parent:
    def __init__(self) -> None:
        self.n = 0

    def go(self) -> None:
        asyncio.create_task(job())


class SkipsParentInit(Parent):
    def __init__(self) -> None:
        self.m = 1


class ReturnsEarly:
    def __init__(self, config: object = None) -> None:
        if config is None:
            return
        self.config = config

    def go(self) -> None:
        asyncio.create_task(job())


class AlternativeConstructor:
    def __init__(self) -> None:
        self.n = 0

    @classmethod
    def blank(cls) -> "AlternativeConstructor":
        return cls.__new__(cls)

    def go(self) -> None:
        asyncio.create_task(job())


class Untyped:
    def __init__(self):
        self.n = 0

    def go(self):
        asyncio.create_task(job())
