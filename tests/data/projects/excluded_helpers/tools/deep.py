"""Excluded, and reached only through another excluded module (app/vendored/fire.py)."""
import asyncio
from typing import Any, Coroutine


def launch(coro: "Coroutine[Any, Any, Any]") -> "asyncio.Task[Any]":
    return asyncio.get_running_loop().create_task(coro)
