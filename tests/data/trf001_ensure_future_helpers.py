"""A helper that returns ``asyncio.ensure_future(param)`` of its parameter (dask-gateway-server's
``TaskPool.spawn``, which keeps the task only in a ``WeakSet``; django-channels-graphql-ws's
``_spawn_background_task``: a miss of the twenty-seventh and the thirty-second trials) makes a
new task only when it is given a coroutine: a call that gives it one and drops what it returns
is reported; one that gives it a task, a future or a coroutine that never waits is silent, as
``ensure_future`` of them is.  The helper itself is never reported (its callers may give it a
future), nor one that keeps the task, binds the parameter again, or also returns another spawn."""
import asyncio
import functools
import weakref
from typing import Any, Set


class TaskPool:
    def __init__(self) -> None:
        self.tasks: "weakref.WeakSet[Any]" = weakref.WeakSet()

    def spawn(self, task: Any) -> "asyncio.Future[Any]":
        out = asyncio.ensure_future(task)
        self.tasks.add(out)  # (a weak set: it keeps nothing)
        return out


class KeepingPool:
    def __init__(self) -> None:
        self.tasks: Set[Any] = set()

    def spawn(self, task: Any) -> "asyncio.Future[Any]":
        out = asyncio.ensure_future(task)
        self.tasks.add(out)
        out.add_done_callback(self.tasks.discard)
        return out


def spawn(awaitable: Any) -> "asyncio.Future[Any]":
    return asyncio.ensure_future(awaitable)


def fire(awaitable: Any) -> None:
    asyncio.ensure_future(awaitable)  # (its callers may give it a future)


def rebinding(awaitable: Any) -> "asyncio.Future[Any]":
    if awaitable is None:
        awaitable = asyncio.sleep(0)
    return asyncio.ensure_future(awaitable)


def either(awaitable: Any, fresh: bool) -> "asyncio.Future[Any]":
    if fresh:
        return asyncio.create_task(tick())
    return asyncio.ensure_future(awaitable)


async def spawn_later(awaitable: Any) -> "asyncio.Future[Any]":
    return asyncio.ensure_future(awaitable)  # (a coroutine function's: not followed)


def spawn_or_none(awaitable: Any) -> "asyncio.Future[Any] | None":
    if awaitable is None:
        return None
    return asyncio.ensure_future(awaitable)


async def tick() -> None:
    await asyncio.sleep(1)


async def quick() -> None:
    print("never waits")


def compute() -> int:
    return 1


class App:
    def __init__(self) -> None:
        self.task_pool = TaskPool()
        self.keeping = KeepingPool()
        self.kept: Any = None

    async def setup(self, task: "asyncio.Task[None]") -> None:
        self.task_pool.spawn(self.check_loop())  # error: TRF001:9
        self.task_pool.spawn(tick())  # error: TRF001:9
        spawn(tick())  # error: TRF001:9
        self.task_pool.spawn(task)  # (a task: returned unchanged)
        self.task_pool.spawn(quick())  # (never waits)
        loop = asyncio.get_running_loop()
        self.task_pool.spawn(loop.run_in_executor(None, compute))  # (a future)
        self.task_pool.spawn(asyncio.create_task(tick()))  # (a task: the spawn inside is handed on)
        self.kept = self.task_pool.spawn(self.check_loop())
        self.keeping.spawn(self.check_loop())
        fire(tick())
        rebinding(tick())  # (its parameter bound again: not followed)
        either(tick(), True)
        await spawn_later(task)
        spawn_or_none(task)
        spawn_or_none(tick())  # (a helper that returns None on a path: not followed, as in another module)
        spawn(quick())
        spawn(tick())  # error: TRF001:9

    async def check_loop(self) -> None:
        while True:
            await asyncio.sleep(1)


def walrus_inside(loop: asyncio.AbstractEventLoop, make: Any) -> None:
    holder = functools.partial(asyncio.ensure_future, tick(), (callback := make()))  # (``callback``: anything)
    print(holder)
    loop.call_soon(callback)
