"""Task factories the module does not show to keep every task change nothing:
the standard library's eager factory, a lambda, one given by a caller or imported
(also over a keeping one of the same name), one that keeps nothing, keeps only on
some paths, in a weak set or in a collection of unknown kind, a coroutine
function, and a keeping one installed on what is not an event loop or in a
decorator.  The twin that keeps each task is trf001_task_factory_keeps.py."""
import asyncio
import weakref
from typing import Any, Callable, Coroutine, Optional, Set

DEBUG = False
_TASKS: Set["asyncio.Future[Any]"] = set()
_WEAK: "weakref.WeakSet[asyncio.Future[Any]]" = weakref.WeakSet()
_MAKE: Callable[..., "asyncio.Future[Any]"] = asyncio.Task


async def job() -> None:
    await asyncio.sleep(1)


def wrapping_factory(loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, Any]) -> "asyncio.Future[Any]":
    task = asyncio.Task(coro, loop=loop)
    print(task)
    return task


def weak_factory(loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, Any]) -> "asyncio.Future[Any]":
    task = asyncio.Task(coro, loop=loop)
    _WEAK.add(task)  # (a weak set keeps nothing)
    return task


def sometimes_factory(loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, Any]) -> "asyncio.Future[Any]":
    task = _MAKE(coro, loop=loop)
    if DEBUG:
        _TASKS.add(task)  # (on some paths only)
    return task


def closure_factory(loop: asyncio.AbstractEventLoop) -> None:
    live: "weakref.WeakSet[asyncio.Future[Any]]" = weakref.WeakSet()

    def factory(loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, Any]) -> "asyncio.Future[Any]":
        task = _MAKE(coro, loop=loop)
        live.add(task)  # (a local of the function around it: not the module's)
        return task

    loop.set_task_factory(factory)  # type: ignore[arg-type]

    async def nested_async(loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, Any]) -> "asyncio.Future[Any]":
        task = _MAKE(coro, loop=loop)
        _TASKS.add(task)  # (a coroutine function: its call makes no task)
        return task

    loop.set_task_factory(nested_async)  # type: ignore[arg-type]


async def async_factory(loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, Any]) -> "asyncio.Future[Any]":
    task = _MAKE(coro, loop=loop)
    _TASKS.add(task)  # (a coroutine function returns a coroutine, not this task)
    return task


def keeping_factory(loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, Any]) -> "asyncio.Future[Any]":
    task = _MAKE(coro, loop=loop)
    _TASKS.add(task)
    task.add_done_callback(_TASKS.discard)
    return task


class Registry:
    def set_task_factory(self, factory: Any) -> None:
        self.factory = factory


def on_loop(hook: Any) -> Callable[[Any], Any]:
    return lambda f: f


@on_loop(lambda loop: loop.set_task_factory(keeping_factory))  # (a decorator: not followed)
def decorated() -> None:
    pass


def install(loop: asyncio.AbstractEventLoop, given: Optional[Callable[..., Any]]) -> None:
    from asyncio import eager_task_factory as keeping_factory  # type: ignore[attr-defined]

    loop.set_task_factory(asyncio.eager_task_factory)  # type: ignore[attr-defined]
    loop.set_task_factory(keeping_factory)  # (the import, not the module's function)
    loop.set_task_factory(wrapping_factory)  # type: ignore[arg-type]
    loop.set_task_factory(weak_factory)  # type: ignore[arg-type]
    loop.set_task_factory(sometimes_factory)  # type: ignore[arg-type]
    loop.set_task_factory(async_factory)  # type: ignore[arg-type]
    loop.set_task_factory(given)
    loop.set_task_factory(lambda loop, coro: asyncio.Task(coro, loop=loop))


def not_a_loop() -> None:
    Registry().set_task_factory(keeping_factory)


async def start() -> None:
    asyncio.create_task(job())  # error: TRF001:5
