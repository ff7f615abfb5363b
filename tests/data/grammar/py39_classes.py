"""Grammar coverage: class bodies, nested classes, methods keeping tasks."""
import asyncio
from dataclasses import dataclass, field
from typing import Any, ClassVar, List, Set


async def job(value: Any = None) -> Any:
    await asyncio.sleep(0)
    return value


class Meta(type):
    def __new__(mcs, name: str, bases: Any, ns: Any, **kw: Any) -> Any:
        asyncio.ensure_future(job(name))
        return super().__new__(mcs, name, bases, ns)


class Base(metaclass=Meta, flag=True):
    tasks: ClassVar[Set[Any]] = set()
    started = [job(i) for i in range(2)]
    if asyncio.get_event_loop_policy():
        spawned_in_body = asyncio.ensure_future(job())
    for _i in range(2):
        pass

    class Inner:
        inner_task = None

        def go(self) -> None:
            asyncio.create_task(job())

            class Local:
                def go(self) -> None:
                    asyncio.create_task(job())

            Local().go()

    def __init__(self) -> None:
        self.tasks = set()
        self._task = asyncio.create_task(job())
        self.tasks.add(asyncio.create_task(job()))

    def start(self) -> None:
        task = asyncio.create_task(job())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        asyncio.create_task(job())

    async def stop(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


class Child(Base):
    def start(self) -> None:
        super().start()
        self.extra = asyncio.create_task(job())


@dataclass
class Holder:
    tasks: List[Any] = field(default_factory=list)
    name: str = "holder"

    def add(self) -> None:
        self.tasks.append(asyncio.create_task(job(self.name)))
