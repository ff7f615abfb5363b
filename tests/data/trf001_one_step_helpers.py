"""A helper of the project that returns a task running its first argument
(``return asyncio.create_task(coro, name=name)``) is judged by that argument, as
``asyncio.create_task`` is: the spawn of a coroutine that never suspends is
silent (browser-use's ``create_task_with_error_handling(self._start_monitoring())``,
a new user's run).  The twins: a coroutine that waits, a helper that runs
something else than its first parameter, one that binds it again, one that
returns a task on some paths only."""
import asyncio
import logging
from typing import Any, Coroutine

log = logging.getLogger(__name__)


def spawn_logged(coro: "Coroutine[Any, Any, Any]", *, name: str = "") -> "asyncio.Task[Any]":
    task = asyncio.create_task(coro, name=name)
    task.add_done_callback(lambda t: log.debug("done %s", t))
    return task


def spawn_wrapped(coro: "Coroutine[Any, Any, Any]") -> "asyncio.Task[Any]":
    return asyncio.create_task(_guarded(coro))


def spawn_rebound(coro: "Coroutine[Any, Any, Any]") -> "asyncio.Task[Any]":
    coro = _guarded(coro)
    return asyncio.get_running_loop().create_task(coro)


def spawn_now(coro: "Coroutine[Any, Any, Any]", now: bool) -> "asyncio.Task[Any] | None":
    if now:
        return asyncio.create_task(coro)
    return None


async def _guarded(coro: "Coroutine[Any, Any, Any]") -> None:
    try:
        await coro
    except Exception:
        log.exception("failed")


class Watchdog:
    def __init__(self) -> None:
        self.monitor: "asyncio.Task[None] | None" = None
        self.count = 0

    async def _start(self) -> None:
        self.monitor = asyncio.create_task(self._watch())

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(1)

    async def _bump(self) -> None:
        self.count += 1

    def _spawn(self, coro: "Coroutine[Any, Any, Any]") -> "asyncio.Task[Any]":
        return asyncio.get_running_loop().create_task(coro)

    async def on_connected(self) -> None:
        spawn_logged(self._start(), name="start")  # never suspends: silent
        spawn_logged(self._bump())
        self._spawn(self._bump())
        spawn_logged(self._watch())  # error: TRF001:9
        self._spawn(self._watch())  # error: TRF001:9
        spawn_wrapped(self._bump())  # error: TRF001:9
        spawn_rebound(self._bump())  # error: TRF001:9
        spawn_now(self._bump(), True)  # error: TRF001:9
        spawn_logged(name="x", coro=self._bump())  # error: TRF001:9
