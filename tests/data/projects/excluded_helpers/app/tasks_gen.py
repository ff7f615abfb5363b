"""An excluded file (*_gen.py) beside the modules that are checked."""
import asyncio
from typing import Any, Coroutine


def start(coro: "Coroutine[Any, Any, Any]") -> "asyncio.Task[Any]":
    return asyncio.create_task(coro)
