"""Sites in branches that exclude each other share one name (issue 33)."""
import asyncio
from typing import Any, Coroutine


def dispatch(kind: str, coro: "Coroutine[Any, Any, None]") -> None:
    if kind == "a":
        asyncio.create_task(coro)
    elif kind == "b":
        asyncio.create_task(coro)
    elif kind == "c":
        if len(kind) > 3:
            asyncio.create_task(coro)
        else:
            print(asyncio.create_task(coro))
    else:
        asyncio.create_task(coro)


def both(flag: bool, coro: "Coroutine[Any, Any, None]") -> None:
    if flag:
        asyncio.create_task(coro)
        asyncio.create_task(coro)  # same branch: own name
    else:
        asyncio.create_task(coro)
    if not flag:  # another if: both may run
        asyncio.create_task(coro)


def looped(kind: str, coro: "Coroutine[Any, Any, None]") -> None:
    for _ in range(2):
        if kind:
            asyncio.create_task(coro)
        else:
            asyncio.create_task(coro)
