"""Helpers that reach asyncio, and each other, through a facade module that
re-exports both (it imports them from here: a cycle back into this module)."""
from typing import Any, Coroutine, Set

import app.facade as facade


def submit(coro: "Coroutine[Any, Any, Any]") -> Any:
    running = facade.asyncio.get_running_loop()
    return running.create_task(coro)


def fire(coro: "Coroutine[Any, Any, Any]") -> None:
    task = facade.submit(coro)  # error: TRF002:12
    task.add_done_callback(print)


def fire_kept(coro: "Coroutine[Any, Any, Any]", keep: Set[Any]) -> None:
    task = facade.submit(coro)
    keep.add(task)
    task.add_done_callback(keep.discard)


def start(coro: "Coroutine[Any, Any, Any]") -> None:
    loop = facade.asyncio.get_running_loop()
    loop.create_task(coro)  # error: TRF001:5


def start_kept(coro: "Coroutine[Any, Any, Any]", keep: Set[Any]) -> None:
    loop = facade.asyncio.get_running_loop()
    task = loop.create_task(coro)
    keep.add(task)
    task.add_done_callback(keep.discard)
