"""Grammar coverage: PEP 695 type parameters and type aliases (3.12)."""
import asyncio
from typing import Any, Awaitable, Callable

type TaskOf[T] = asyncio.Task[T]
type Factory[T, **P] = Callable[P, Awaitable[T]]
type Nested = list[TaskOf[int]]


async def job(value: Any = None) -> Any:
    await asyncio.sleep(0)
    return value


def spawn[T](coro: Awaitable[T]) -> TaskOf[T]:
    asyncio.ensure_future(job())
    return asyncio.ensure_future(coro)


async def bounded[T: (int, str), *Ts, **P](value: T, *args: *Ts) -> T:
    task = asyncio.create_task(job(value))
    asyncio.create_task(job(*args))
    return await task


class Pool[T: object]:
    tasks: set[TaskOf[T]]

    def __init__(self) -> None:
        self.tasks = set()

    def submit[R](self, coro: Awaitable[R]) -> None:
        task = asyncio.create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        asyncio.create_task(job())

    class Inner[U]:
        def go(self) -> None:
            type Local[V] = dict[U, V]
            asyncio.create_task(job(Local))
