"""A decorator of the file that makes a function's call return a new task (issue
32): it returns a function it defines whose every return is a new task nobody
keeps (``asyncio.create_task(fn(*args))``).  A call of a function it decorates
is a spawn, wherever the function is defined in the file.  Silent: a decorator
that keeps the task, one whose wrapper returns anything else or is a coroutine
function, one with arguments, a second decorator, a decorator bound twice."""
import asyncio
import functools
from typing import Any, Callable, Set

_tasks: Set["asyncio.Task[Any]"] = set()


def background(fn: Callable[..., Any]) -> Callable[..., "asyncio.Task[Any]"]:
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> "asyncio.Task[Any]":
        return asyncio.create_task(fn(*args, **kwargs))
    return wrapper


def as_future(fn: Callable[..., Any]) -> Callable[..., "asyncio.Future[Any]"]:
    def wrapper(*args: Any) -> "asyncio.Future[Any]":
        return asyncio.ensure_future(fn(*args))
    return wrapper


def kept(fn: Callable[..., Any]) -> Callable[..., "asyncio.Task[Any]"]:
    def wrapper(*args: Any) -> "asyncio.Task[Any]":
        task = asyncio.create_task(fn(*args))
        _tasks.add(task)
        task.add_done_callback(_tasks.discard)
        return task
    return wrapper


def logged(fn: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(*args: Any) -> Any:
        return fn(*args)
    return wrapper


def awaiting(fn: Callable[..., Any]) -> Callable[..., Any]:
    async def wrapper(*args: Any) -> Any:
        return asyncio.create_task(fn(*args))
    return wrapper


def named(name: str) -> Callable[..., Any]:
    return background


@background
async def refresh(n: int) -> None:
    await asyncio.sleep(n)


@as_future
async def fetch() -> None:
    await asyncio.sleep(1)


@kept
async def safe() -> None:
    await asyncio.sleep(1)


@logged
async def plain() -> None:
    await asyncio.sleep(1)


@awaiting
async def wrapped() -> None:
    await asyncio.sleep(1)


@named("x")
async def configured() -> None:
    await asyncio.sleep(1)


@background
@logged
async def twice() -> None:
    await asyncio.sleep(1)


class Poller:
    @background
    async def poll(self) -> None:
        await asyncio.sleep(1)

    def start(self) -> None:
        self.poll()  # error: TRF001:9
        self._poll = self.poll()


def main() -> None:
    refresh(1)  # error: TRF001:5
    fetch()  # error: TRF001:5
    waiting = refresh(2)  # error: TRF002:15
    waiting.add_done_callback(print)
    _tasks.add(refresh(3))
    safe()
    plain()
    wrapped()
    configured()
    twice()
