"""A ``run_coroutine_threadsafe`` of a coroutine that never suspends (no
``await``, ``async for``, ``async with``) runs to its end in its task's first
step, while the loop's queue holds it: its future can be dropped.  Not when the
coroutine's body is a stub (a hook a subclass overrides, or what a decorator
wraps), nor when it returns a value that may be a new task, which its done task
and the dropped future alone then hold.  The same holds for the loop's own
spawners of one such coroutine (``create_task``, ``ensure_future``,
``loop.create_task``): its task runs to its end in its first step; a wrong
answer there (pyotgw's ``ensure_future(self._poll_gpio())``) was a false alarm
(docs/rules/TRF001.md)."""
import asyncio
from typing import Any, Callable


def _traced(fn: Callable[..., Any]) -> Callable[..., Any]:
    return fn


class Bridge:
    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.event = asyncio.Event()
        self.count = 0

    def changed(self) -> None:
        asyncio.run_coroutine_threadsafe(self._notify(), self.loop)
        asyncio.run_coroutine_threadsafe(self._posted(), self.loop)
        asyncio.run_coroutine_threadsafe(self._counted(), self.loop)
        asyncio.run_coroutine_threadsafe(self._wait(), self.loop)  # error: TRF001:9
        asyncio.run_coroutine_threadsafe(self.on_timeout(), self.loop)  # error: TRF001:9
        asyncio.run_coroutine_threadsafe(self._traced_hook(), self.loop)  # error: TRF001:9
        asyncio.run_coroutine_threadsafe(self._spawn_more(), self.loop)  # error: TRF001:9
        asyncio.run_coroutine_threadsafe(self._handle(), self.loop)  # (its value: post()'s, no task)
        asyncio.run_coroutine_threadsafe(self._handle_made(), self.loop)  # error: TRF001:9

    def on_the_loop(self) -> None:
        asyncio.create_task(self._notify())
        asyncio.ensure_future(self._counted())
        self.loop.create_task(self._posted())
        asyncio.get_running_loop().create_task(self._notify())
        asyncio.create_task(self._wait())  # error: TRF001:9
        asyncio.ensure_future(self.on_timeout())  # error: TRF001:9
        self.loop.create_task(self._spawn_more())  # error: TRF001:9
        asyncio.gather(self._notify(), self._wait())  # error: TRF001:9

    async def _notify(self) -> None:
        self.event.set()

    async def _posted(self) -> bool:
        return self.post()

    async def _counted(self):  # type: ignore[no-untyped-def]
        self.count += 1
        return self.count > 1 and not self.event.is_set()

    async def _wait(self) -> None:
        await self.event.wait()

    async def on_timeout(self) -> None:
        """A hook: subclasses override it, and may wait."""

    @_traced
    async def _traced_hook(self) -> None:
        pass

    async def _spawn_more(self):  # type: ignore[no-untyped-def]
        return asyncio.create_task(self._wait())

    async def _handle(self):  # type: ignore[no-untyped-def]
        return self.post()

    def post(self) -> bool:
        return True

    async def _handle_made(self):  # type: ignore[no-untyped-def]
        return self.make()

    def make(self) -> "asyncio.Task[None]":
        return asyncio.create_task(self._wait())


class Yielder:
    """``await asyncio.sleep(0)`` yields once: the task is put back at once in
    the loop's queue of ready callbacks, which holds it, so a coroutine whose
    only waits are so runs to its end with the loop holding it (mode's
    ``run_coroutine_threadsafe(asyncio.sleep(0), loop)``, thirteenth trial).
    Any other delay, or one not written as a constant, is taken to wait, as any
    other ``await`` is (what holds a sleeping task is not followed)."""

    def __init__(self, loop: asyncio.AbstractEventLoop, delay: float) -> None:
        self.loop = loop
        self.delay = delay
        self.count = 0

    async def _yield(self) -> None:
        self.count += 1
        await asyncio.sleep(0)
        await asyncio.sleep(0.0)
        self.count += 1

    async def _nap(self) -> None:
        await asyncio.sleep(0.01)

    async def _delayed(self) -> None:
        await asyncio.sleep(self.delay)

    def wake(self) -> None:
        asyncio.run_coroutine_threadsafe(asyncio.sleep(0), self.loop)
        asyncio.run_coroutine_threadsafe(self._yield(), self.loop)
        asyncio.run_coroutine_threadsafe(asyncio.sleep(1), self.loop)  # error: TRF001:9
        asyncio.run_coroutine_threadsafe(self._nap(), self.loop)  # error: TRF001:9
        asyncio.run_coroutine_threadsafe(self._delayed(), self.loop)  # error: TRF001:9

    async def start(self) -> None:
        asyncio.create_task(self._yield())
        asyncio.create_task(asyncio.sleep(0))
        asyncio.create_task(self._nap())  # error: TRF001:9
