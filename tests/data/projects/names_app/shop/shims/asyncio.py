"""A shim of asyncio with an ``ensure_future`` of its own that keeps its tasks: a
module of the project named ``asyncio``, not asyncio (a fresh-eyes review's false
alarm)."""
import asyncio as _asyncio
from asyncio import *  # noqa: F401,F403
from asyncio import create_task, get_running_loop  # noqa: F401
from typing import Any, Set

_KEEP: Set[Any] = set()


def ensure_future(coro: Any) -> Any:
    task = _asyncio.ensure_future(coro)
    _KEEP.add(task)
    task.add_done_callback(_KEEP.discard)
    return task
