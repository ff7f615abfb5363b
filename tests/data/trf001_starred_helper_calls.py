"""Same-file spawners called with ``*args`` or ``**kwargs`` (nextcord's event
dispatch): a function that returns a new task returns it whatever its arguments
are, so a starred call of it is a spawn too.  Which parameter a starred call's
arguments bind is not known, so on the parameter side such a call keeps what it
is given (silent)."""
import asyncio
from typing import Any, Callable, Coroutine, Dict, Set, Tuple

background: Set["asyncio.Task[Any]"] = set()
Factory = Callable[..., Coroutine[Any, Any, None]]


def spawn(coro: Factory, *args: Any, **kwargs: Any) -> "asyncio.Task[None]":
    return asyncio.create_task(coro(*args, **kwargs))


def look(task: "asyncio.Task[Any]", *rest: Any) -> None:
    print(task, rest)


class Client:
    def _schedule_event(self, coro: Factory, *args: Any) -> "asyncio.Task[None]":
        return asyncio.create_task(coro(*args))

    # ---- lost: reported ------------------------------------------------------------
    def dispatch(self, coro: Factory, args: Tuple[Any, ...]) -> None:
        self._schedule_event(coro, *args)  # error: TRF001:9

    def dispatch_bound(self, coro: Factory, args: Tuple[Any, ...]) -> None:
        task = self._schedule_event(coro, *args)  # error: TRF002:16
        task.add_done_callback(print)

    # ---- kept: silent ----------------------------------------------------------------
    def dispatch_kept(self, coro: Factory, args: Tuple[Any, ...]) -> None:
        background.add(self._schedule_event(coro, *args))

    def dispatch_returned(self, coro: Factory, args: Tuple[Any, ...]) -> "asyncio.Task[None]":
        return self._schedule_event(coro, *args)

    async def dispatch_awaited(self, coro: Factory, args: Tuple[Any, ...]) -> None:
        await self._schedule_event(coro, *args)


def started(coro: Factory, args: Tuple[Any, ...], kwargs: Dict[str, Any]) -> None:
    spawn(coro, *args)  # error: TRF001:5
    spawn(coro, **kwargs)  # error: TRF001:5


def started_and_kept(coro: Factory, args: Tuple[Any, ...]) -> None:
    task = spawn(coro, *args)
    background.add(task)
    task.add_done_callback(background.discard)


# ---- the parameter side stays conservative: silent -----------------------------------
def looked_at(coro: Factory, rest: Tuple[Any, ...]) -> None:
    look(asyncio.create_task(coro()), *rest)
    task = asyncio.create_task(coro())
    look(task, **{})
