"""Typed code (mypy --strict passes) whose spawns return Tasks and Futures: the
fixed file's set is typed to hold them all, so mypy still passes; a task is named
in lower case after a camelCase coroutine."""
import asyncio
from typing import Any, Awaitable, Callable

_background_tasks: "set[asyncio.Future[Any]]" = set()


async def job() -> int:
    await asyncio.sleep(0.01)
    return 1


class Poller:
    def __init__(self, interval: float) -> None:
        self.interval = interval

    def start(self) -> None:
        job_task = asyncio.ensure_future(job())
        _background_tasks.add(job_task)
        job_task.add_done_callback(_background_tasks.discard)
        del job_task

    async def reqSummary(self) -> None:
        await asyncio.sleep(self.interval)

    def onError(self) -> None:
        req_summary_task = asyncio.ensure_future(self.reqSummary())
        _background_tasks.add(req_summary_task)
        req_summary_task.add_done_callback(_background_tasks.discard)
        del req_summary_task

    def watch(self, loop: asyncio.AbstractEventLoop) -> None:
        both = asyncio.gather(job(), loop.create_future(), return_exceptions=True)
        _background_tasks.add(both)
        both.add_done_callback(_background_tasks.discard)
        both.add_done_callback(print)


def spawn_all(callback: Callable[[], Awaitable[Any]]) -> None:
    job_task = asyncio.create_task(job())
    _background_tasks.add(job_task)
    job_task.add_done_callback(_background_tasks.discard)
    del job_task
    asyncio.shield(job())
    callback_task = asyncio.ensure_future(callback())
    _background_tasks.add(callback_task)
    callback_task.add_done_callback(_background_tasks.discard)
    del callback_task
