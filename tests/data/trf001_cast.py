"""``typing.cast(T, value)`` is its value: a spawn wrapped in a cast is the
spawn (typed code does so to name the task's type, mmrelay's ``_submit_coro``)."""
import asyncio
import typing
from concurrent.futures import Future
from typing import Any, cast

import other


async def work():
    await asyncio.sleep(1)


def dropped():
    cast(asyncio.Task, asyncio.create_task(work()))  # error: TRF001:24


def dropped_dotted():
    typing.cast("asyncio.Task[None]", asyncio.create_task(work()))  # error: TRF001:39


def kept(tasks):
    task = cast(asyncio.Task, asyncio.create_task(work()))
    tasks.add(task)
    task.add_done_callback(tasks.discard)


def submit(coro):
    running = asyncio.get_running_loop()
    return cast(Future[Any], running.create_task(coro))


def fire():
    submit(work())  # error: TRF001:5


def fire_local():
    task = submit(work())  # error: TRF002:12
    task.add_done_callback(print)


def fire_kept(tasks):
    task = submit(work())
    tasks.add(task)
    task.add_done_callback(tasks.discard)


def not_typing_cast(tasks):
    other.cast(asyncio.create_task(work()))  # another module's ``cast``: what it does is not known


def cast_given(cast):
    cast(asyncio.Task, asyncio.create_task(work()))  # a parameter named cast: what it does is not known


def cast_defined(tasks):
    def cast(kind, task):
        tasks.add(task)
        task.add_done_callback(tasks.discard)

    cast(asyncio.Task, asyncio.create_task(work()))  # a function of its own named cast


def cast_around(tasks):
    def cast(kind, task):
        tasks.add(task)
        task.add_done_callback(tasks.discard)

    def inner():
        cast(asyncio.Task, asyncio.create_task(work()))  # the enclosing function's cast

    inner()
