"""``asyncio.ensure_future(f())`` makes a new task only when ``f()`` returns a
coroutine; a future it returns unchanged (no task to lose).  When ``f`` is a
plain function (a ``def``, no decorator) of this file or of another module of
the project, or a plain method of the class or of a receiver whose class is
written down, its result is most often a future (tornado's ``Condition.wait()``,
``Semaphore.acquire()``, ``Queue.get()``: 28 false alarms in tornado's own
tests): not reported.  A coroutine function's call, an unknown call, a decorated
function's and a name bound twice still are (the twins)."""
import asyncio
import functools
from typing import Any, Awaitable, Callable


def waiter() -> "asyncio.Future[None]":
    return asyncio.get_running_loop().create_future()


async def work() -> None:
    await asyncio.sleep(1)


def traced(func: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(func)
    def wrapper(*args: Any) -> Any:
        return func(*args)
    return wrapper


@traced
def decorated() -> Awaitable[None]:
    return work()


def twice() -> Awaitable[None]:
    return waiter()


def twice() -> Awaitable[None]:  # noqa: F811
    return work()


class Condition:
    def __init__(self) -> None:
        self._waiters: "list[asyncio.Future[None]]" = []

    def wait(self) -> "asyncio.Future[None]":
        fut = asyncio.get_running_loop().create_future()
        self._waiters.append(fut)
        return fut

    async def wait_async(self) -> None:
        await asyncio.sleep(1)

    @staticmethod
    def made() -> "asyncio.Future[None]":
        return asyncio.get_running_loop().create_future()

    @property
    def pending(self) -> Awaitable[None]:
        return self.wait_async()

    def plain_futures(self) -> None:
        asyncio.ensure_future(self.wait())
        assert not asyncio.ensure_future(self.wait()).done()
        first = asyncio.ensure_future(self.wait())
        print(first)
        asyncio.ensure_future(self.made())
        # through the class's name: not looked up, reported as before
        asyncio.ensure_future(Condition.made())  # error: TRF001:9

    def coroutines(self) -> None:
        asyncio.ensure_future(self.pending)  # an attribute: an existing future, as before
        asyncio.ensure_future(self.wait_async())  # error: TRF001:9
        assert not asyncio.ensure_future(self.wait_async()).done()  # error: TRF001:20
        first = asyncio.ensure_future(self.wait_async())  # error: TRF002:17
        print(first)


def module_functions() -> None:
    asyncio.ensure_future(waiter())
    asyncio.ensure_future(work())  # error: TRF001:5
    asyncio.ensure_future(decorated())  # error: TRF001:5
    asyncio.ensure_future(twice())  # error: TRF001:5
    asyncio.ensure_future(unknown())  # error: TRF001:5  # noqa: F821


def receivers(cond: Condition) -> None:
    asyncio.ensure_future(cond.wait())
    asyncio.ensure_future(cond.wait_async())  # error: TRF001:5


def local_def() -> None:
    # a function's own nested ``def`` is not looked up: reported, as before
    def make() -> "asyncio.Future[None]":
        return waiter()

    asyncio.ensure_future(make())  # error: TRF001:5

    async def run() -> None:
        await work()

    asyncio.ensure_future(run())  # error: TRF001:5


def created_task_is_still_reported() -> None:
    asyncio.create_task(work())  # error: TRF001:5


# ---- plain functions that return new tasks, or may stand for a coroutine: reported
def spawn(coro: Any) -> "asyncio.Task[Any]":
    return asyncio.create_task(coro)


def both() -> Any:
    return asyncio.gather(work(), work())


def replaced() -> Any:
    return waiter()


def rebinds() -> None:
    # rebound through ``global`` in another function: ``replaced`` is no known
    # plain function, and ``ensure_future(replaced())`` below is reported
    global replaced
    replaced = work


KEPT: "set[asyncio.Task[Any]]" = set()


def spawn_kept(coro: Any) -> "asyncio.Task[Any]":
    task = asyncio.create_task(coro)
    KEPT.add(task)
    task.add_done_callback(KEPT.discard)
    return task


def via_kept(coro: Any) -> "asyncio.Future[Any]":
    return asyncio.ensure_future(spawn_kept(coro))  # the task it keeps, given back unchanged


def via_spawn(coro: Any) -> "asyncio.Future[Any]":
    return asyncio.ensure_future(spawn(coro))


def helpers_that_spawn() -> None:
    asyncio.ensure_future(spawn(work()))  # error: TRF001:5
    asyncio.ensure_future(both())  # error: TRF001:5
    asyncio.ensure_future(replaced())  # error: TRF001:5
    asyncio.ensure_future(spawn_kept(work()))
    via_kept(work())
    via_spawn(work())  # error: TRF001:5


class Base:
    def run(self) -> Awaitable[None]:
        raise NotImplementedError

    def wait(self) -> "asyncio.Future[None]":
        return waiter()

    def _spawn(self) -> "asyncio.Task[None]":
        return asyncio.create_task(work())

    def start(self) -> None:
        asyncio.ensure_future(self.run())  # error: TRF001:9
        asyncio.ensure_future(self.wait())  # error: TRF001:9
        asyncio.ensure_future(self._spawn())  # error: TRF001:9

    @classmethod
    def each(cls, items: Any) -> None:
        for cls in items:  # noqa: B020
            asyncio.ensure_future(cls.wait())  # error: TRF001:13


class Runner(Base):
    def __init__(self) -> None:
        self.wait = work  # type: ignore[method-assign,assignment]

    async def run(self) -> None:
        await work()
