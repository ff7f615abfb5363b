"""Spawner helpers of the project, as real projects write them."""
import asyncio
import logging
from typing import Any, Coroutine, Optional, Set

log = logging.getLogger(__name__)
_background: Set["asyncio.Task[Any]"] = set()


def _log_failure(task: "asyncio.Task[Any]") -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("background task failed", exc_info=task.exception())


def spawn_logged(coro: "Coroutine[Any, Any, Any]", *, name: Optional[str] = None) -> "asyncio.Task[Any]":
    task = asyncio.create_task(coro, name=name)
    task.add_done_callback(_log_failure)
    return task


def in_background(coro: "Coroutine[Any, Any, Any]") -> "asyncio.Task[Any]":
    return asyncio.get_running_loop().create_task(coro)


def log_on_fail(task: "asyncio.Task[Any]") -> None:
    task.add_done_callback(_log_failure)


def keep_task(task: "asyncio.Task[Any]") -> None:
    _background.add(task)
    task.add_done_callback(_background.discard)


def kept_spawn(coro: "Coroutine[Any, Any, Any]") -> "asyncio.Task[Any]":
    task = asyncio.create_task(coro)
    keep_task(task)
    return task


def relay(coro: "Coroutine[Any, Any, Any]") -> "asyncio.Task[Any]":
    return spawn_logged(coro)


def sometimes(coro: "Coroutine[Any, Any, Any]", now: bool) -> "Optional[asyncio.Task[Any]]":
    if now:
        return asyncio.create_task(coro)
    return None


async def refresh(coro: "Coroutine[Any, Any, Any]", now: bool) -> "Optional[asyncio.Task[Any]]":
    """What ``await refresh(...)`` returns: a new task, or None."""
    await asyncio.sleep(0.01)
    if now:
        return asyncio.create_task(coro)
    return None


async def restart(coro: "Coroutine[Any, Any, Any]") -> "asyncio.Task[Any]":
    await asyncio.sleep(0.01)
    return asyncio.create_task(coro)


async def restart_kept(coro: "Coroutine[Any, Any, Any]") -> "asyncio.Task[Any]":
    await asyncio.sleep(0.01)
    return kept_spawn(coro)


async def restart_or_value(coro: "Coroutine[Any, Any, Any]", now: bool) -> "Any":
    if now:
        return asyncio.create_task(coro)
    return await coro


def twice(coro: "Coroutine[Any, Any, Any]") -> "asyncio.Task[Any]":
    return asyncio.create_task(coro)


def twice(coro: "Coroutine[Any, Any, Any]") -> "asyncio.Task[Any]":  # noqa: F811
    return kept_spawn(coro)


def future_of(value: Any) -> "asyncio.Future[Any]":
    """A plain function that returns a future: ``ensure_future`` of its call
    returns that future unchanged (no task)."""
    fut: "asyncio.Future[Any]" = asyncio.get_running_loop().create_future()
    fut.set_result(value)
    return fut


async def settle() -> None:
    await asyncio.sleep(0.1)
