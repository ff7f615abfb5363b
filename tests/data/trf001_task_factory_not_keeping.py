"""Task factories that keep nothing, or that are not the module's, change nothing:
the standard library's eager factory, ``None``, a factory of the module that
wraps the task without keeping it (Sentry's), one given by a caller.  The twin
that keeps each task is trf001_task_factory_keeps.py."""
import asyncio
import weakref
from typing import Any, Callable, Coroutine, Optional


async def job() -> None:
    await asyncio.sleep(1)


def wrapping_factory(loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, Any]) -> "asyncio.Task[Any]":
    task = asyncio.Task(coro, loop=loop)
    print(task)
    return task


def install(loop: asyncio.AbstractEventLoop, given: Optional[Callable[..., Any]]) -> None:
    loop.set_task_factory(asyncio.eager_task_factory)  # type: ignore[attr-defined]
    loop.set_task_factory(None)
    loop.set_task_factory(wrapping_factory)  # type: ignore[arg-type]
    loop.set_task_factory(given)
    loop.set_task_factory(lambda loop, coro: asyncio.Task(coro, loop=loop))


async def start() -> None:
    asyncio.create_task(job())  # error: TRF001:5


def weak_factory(loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, Any]) -> "asyncio.Task[Any]":
    task = asyncio.Task(coro, loop=loop)
    _WEAK.add(task)  # (a weak set keeps nothing)
    return task


_WEAK: "weakref.WeakSet[asyncio.Task[Any]]" = weakref.WeakSet()


def install_weak(loop: asyncio.AbstractEventLoop) -> None:
    loop.set_task_factory(weak_factory)  # type: ignore[arg-type]


async def restart() -> None:
    asyncio.ensure_future(job())  # error: TRF001:5


_MAKE: Callable[..., "asyncio.Future[Any]"] = asyncio.Task


def plain_factory(loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, Any]) -> "asyncio.Future[Any]":
    made = _MAKE(coro, loop=loop)  # (names no spawner: entered all the same, and it keeps nothing)
    return made


def install_plain(loop: asyncio.AbstractEventLoop) -> None:
    loop.set_task_factory(plain_factory)  # type: ignore[arg-type]
