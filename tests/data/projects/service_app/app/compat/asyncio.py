"""A module of the project named ``asyncio``: its ``create_task`` keeps the task."""
import asyncio as _asyncio
from typing import Any, Coroutine, Set

_TASKS: Set[Any] = set()


def create_task(coro: "Coroutine[Any, Any, Any]") -> None:
    task = _asyncio.get_running_loop().create_task(coro)
    _TASKS.add(task)
    task.add_done_callback(_TASKS.discard)
