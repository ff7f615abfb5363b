#!/usr/bin/env python3
"""Functions, nested functions, static methods and a class without __init__."""
from __future__ import annotations

import asyncio as aio
from asyncio import ensure_future

_background_tasks: set[object] = set()


async def tick() -> None:
    await aio.sleep(1)


async def main() -> None:
    tick_task = aio.create_task(tick())
    _background_tasks.add(tick_task)
    tick_task.add_done_callback(_background_tasks.discard)
    del tick_task
    tick_task_1 = ensure_future(tick())
    _background_tasks.add(tick_task_1)
    tick_task_1.add_done_callback(_background_tasks.discard)
    del tick_task_1
    tick_task_2 = aio.Task(tick())
    _background_tasks.add(tick_task_2)
    tick_task_2.add_done_callback(_background_tasks.discard)
    del tick_task_2

    def inner() -> None:
        tick_task = aio.create_task(tick())
        _background_tasks.add(tick_task)
        tick_task.add_done_callback(_background_tasks.discard)
        del tick_task

    inner()


def sync_starter(loop: aio.AbstractEventLoop) -> None:
    tick_task = loop.create_task(tick())
    _background_tasks.add(tick_task)
    tick_task.add_done_callback(_background_tasks.discard)
    del tick_task


class NoInit:
    def go(self) -> None:
        tick_task = aio.create_task(tick())
        _background_tasks.add(tick_task)
        tick_task.add_done_callback(_background_tasks.discard)
        del tick_task

    @staticmethod
    def helper() -> None:
        tick_task = aio.create_task(tick())
        _background_tasks.add(tick_task)
        tick_task.add_done_callback(_background_tasks.discard)
        del tick_task
