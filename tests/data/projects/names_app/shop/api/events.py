"""Callbacks handed to another module's functions that call them and drop the
task they return (issue 32)."""
import asyncio
import functools
from typing import Any

from ..hooks import Dispatcher, call_soon_safe, run_hook


async def job() -> None:
    pass


class Events:
    def __init__(self, dispatcher: Dispatcher) -> None:
        self.dispatcher = dispatcher

    def fire(self, coro: Any) -> None:
        run_hook(lambda: asyncio.create_task(job()))  # error: TRF001:26
        run_hook(asyncio.create_task, coro)  # error: TRF001:18
        run_hook(functools.partial(asyncio.create_task, job()))  # error: TRF001:36
        self.dispatcher.dispatch(lambda: asyncio.create_task(job()))  # error: TRF001:42
        call_soon_safe(lambda: asyncio.create_task(job()))
        run_hook(lambda: job())
