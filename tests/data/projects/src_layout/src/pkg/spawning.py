import asyncio
from typing import Any, Coroutine


def fire(coro: "Coroutine[Any, Any, Any]") -> "asyncio.Task[Any]":
    return asyncio.create_task(coro)
