"""Spawners under other names of the file (issue 32): a module-level alias of
asyncio's (``create_task = asyncio.create_task``, also on the branches of a
``try`` or of a version switch), and a name bound to a loop's ``create_task``.

An event loop has no ``ensure_future`` method: ``loop.ensure_future(c)`` raises
AttributeError and makes no task, so nothing is reported for it.
"""
import asyncio
import sys
from typing import Any, Set

background: Set["asyncio.Task[Any]"] = set()

create_task = asyncio.create_task
spawn_soon = asyncio.ensure_future

try:
    start = asyncio.create_task
except AttributeError:
    start = asyncio.ensure_future

if sys.version_info >= (3, 7):
    switched = asyncio.create_task
else:
    switched = asyncio.ensure_future

loop = asyncio.new_event_loop()
spawn = loop.create_task

# bound to something else too: which one a call finds is not known
either = asyncio.create_task
either = print
try:
    compat = asyncio.create_task
except AttributeError:
    def compat(coro: Any) -> Any:
        return coro


async def job() -> None:
    await asyncio.sleep(1)


async def module_aliases() -> None:
    create_task(job())  # error: TRF001:5
    spawn_soon(job())  # error: TRF001:5
    start(job())  # error: TRF001:5
    switched(job())  # error: TRF001:5
    spawn(job())  # error: TRF001:5
    kept = create_task(job())
    background.add(kept)
    kept.add_done_callback(background.discard)
    await switched(job())
    background.add(spawn(job()))


async def not_known() -> None:
    either(job())
    compat(job())


async def bound_methods(group: asyncio.TaskGroup) -> None:
    make = asyncio.get_running_loop().create_task
    make(job())  # error: TRF001:5
    grouped = group.create_task
    grouped(job())
    background.add(make(job()))


async def bound_twice(running: asyncio.AbstractEventLoop, group: asyncio.TaskGroup) -> None:
    make = running.create_task
    if running.is_closed():
        make = group.create_task
    make(job())


async def a_parameter(spawn: Any) -> None:
    spawn(job())


class Client:
    spawn = staticmethod(print)

    async def run(self) -> None:
        spawn(job())  # error: TRF001:9
        self.spawn(job())


async def no_loop_method(running: asyncio.AbstractEventLoop) -> None:
    running.ensure_future(job())  # type: ignore[attr-defined]
    loop.ensure_future(job())  # type: ignore[attr-defined]
    asyncio.get_running_loop().ensure_future(job())  # type: ignore[attr-defined]
    running.call_soon(loop.ensure_future, job())  # type: ignore[attr-defined]
    running.call_soon(loop.create_task, job())  # error: TRF001:23
