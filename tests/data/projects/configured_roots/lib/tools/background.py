import asyncio
from typing import Any, Coroutine


def start(coro: "Coroutine[Any, Any, Any]") -> "asyncio.Task[Any]":
    return asyncio.get_running_loop().create_task(coro)
