"""Decorators of the project: one makes a call of what it decorates return a
new task, one a future, one keeps the task it makes, one only logs."""
import asyncio
import functools
from typing import Any, Callable, Set

_tasks: Set["asyncio.Future[Any]"] = set()


def background(fn: Callable[..., Any]) -> Callable[..., "asyncio.Task[Any]"]:
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> "asyncio.Task[Any]":
        return asyncio.create_task(fn(*args, **kwargs))
    return wrapper


def as_future(fn: Callable[..., Any]) -> Callable[..., "asyncio.Future[Any]"]:
    def wrapper(*args: Any) -> "asyncio.Future[Any]":
        return asyncio.ensure_future(fn(*args))
    return wrapper


def kept(fn: Callable[..., Any]) -> Callable[..., "asyncio.Future[Any]"]:
    def wrapper(*args: Any) -> "asyncio.Future[Any]":
        future = asyncio.ensure_future(fn(*args))
        _tasks.add(future)
        future.add_done_callback(_tasks.discard)
        return future
    return wrapper


def logged(fn: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(*args: Any) -> Any:
        return fn(*args)
    return wrapper


@background
async def refresh() -> None:
    await asyncio.sleep(1)
