"""Sites in branches that exclude each other share one name (issue 33)."""
import asyncio
from typing import Any, Coroutine

_background_tasks: "set[asyncio.Task[object]]" = set()


def dispatch(kind: str, coro: "Coroutine[Any, Any, None]") -> None:
    if kind == "a":
        coro_task = asyncio.create_task(coro)
        _background_tasks.add(coro_task)
        coro_task.add_done_callback(_background_tasks.discard)
        del coro_task
    elif kind == "b":
        coro_task = asyncio.create_task(coro)
        _background_tasks.add(coro_task)
        coro_task.add_done_callback(_background_tasks.discard)
        del coro_task
    elif kind == "c":
        if len(kind) > 3:
            coro_task = asyncio.create_task(coro)
            _background_tasks.add(coro_task)
            coro_task.add_done_callback(_background_tasks.discard)
            del coro_task
        else:
            coro_task = asyncio.create_task(coro)
            _background_tasks.add(coro_task)
            coro_task.add_done_callback(_background_tasks.discard)
            print(coro_task)
            del coro_task
    else:
        coro_task = asyncio.create_task(coro)
        _background_tasks.add(coro_task)
        coro_task.add_done_callback(_background_tasks.discard)
        del coro_task


def both(flag: bool, coro: "Coroutine[Any, Any, None]") -> None:
    if flag:
        coro_task = asyncio.create_task(coro)
        _background_tasks.add(coro_task)
        coro_task.add_done_callback(_background_tasks.discard)
        del coro_task
        coro_task_1 = asyncio.create_task(coro)  # same branch: own name
        _background_tasks.add(coro_task_1)
        coro_task_1.add_done_callback(_background_tasks.discard)
        del coro_task_1
    else:
        coro_task = asyncio.create_task(coro)
        _background_tasks.add(coro_task)
        coro_task.add_done_callback(_background_tasks.discard)
        del coro_task
    if not flag:  # another if: both may run
        coro_task_2 = asyncio.create_task(coro)
        _background_tasks.add(coro_task_2)
        coro_task_2.add_done_callback(_background_tasks.discard)
        del coro_task_2


def looped(kind: str, coro: "Coroutine[Any, Any, None]") -> None:
    for _ in range(2):
        if kind:
            coro_task = asyncio.create_task(coro)
            _background_tasks.add(coro_task)
            coro_task.add_done_callback(_background_tasks.discard)
            del coro_task
        else:
            coro_task = asyncio.create_task(coro)
            _background_tasks.add(coro_task)
            coro_task.add_done_callback(_background_tasks.discard)
            del coro_task
