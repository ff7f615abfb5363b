"""A weak collection keeps nothing (aiomonitor's ``self._termui_tasks``): a task
added only to a ``weakref.WeakSet()`` (or as a ``WeakValueDictionary()`` value) is
lost.  Only when the file shows the collection is weak: an attribute every store of
which in the file is a new weak collection, or a module name bound once to one.
A new task added straight to it is TRF001, as one passed straight to a function of
the file that does not keep it."""
import asyncio
import weakref
from typing import Any, Coroutine, Set
from weakref import WeakSet as Weak

_mod: "weakref.WeakSet[asyncio.Task[None]]" = weakref.WeakSet()
_aliased: "weakref.WeakSet[asyncio.Task[None]]" = Weak()
_strong: Set["asyncio.Task[None]"] = set()
_rebound: "weakref.WeakSet[asyncio.Task[None]]" = weakref.WeakSet()
Coro = Coroutine[Any, Any, None]


def rebind() -> None:
    global _rebound
    _rebound = set()  # type: ignore[assignment]


class Monitor:
    def __init__(self) -> None:
        self._tasks: "weakref.WeakSet[asyncio.Task[None]]" = weakref.WeakSet()
        self._named: "weakref.WeakValueDictionary[str, asyncio.Task[None]]" = (
            weakref.WeakValueDictionary()
        )
        self._replaced: "weakref.WeakSet[asyncio.Task[None]]" = weakref.WeakSet()
        self._strong: Set["asyncio.Task[None]"] = set()

    def reset(self) -> None:
        self._replaced = set()  # type: ignore[assignment]

    # ---- lost: reported ------------------------------------------------------------
    def go(self, coro: Coro) -> None:
        task = asyncio.create_task(coro)  # error: TRF002:16
        self._tasks.add(task)

    def go_inline(self, coro: Coro) -> None:
        self._tasks.add(asyncio.create_task(coro))  # error: TRF001:25

    def go_named(self, name: str, coro: Coro) -> None:
        self._named[name] = asyncio.create_task(coro)  # error: TRF001:29
        task = asyncio.create_task(coro)  # error: TRF002:16
        self._named.setdefault(name, task)

    def go_through_a_helper(self, coro: Coro) -> None:
        self._track(asyncio.create_task(coro))  # error: TRF001:21

    def _track(self, task: "asyncio.Task[None]") -> None:
        self._tasks.add(task)

    # ---- kept: silent ----------------------------------------------------------------
    def go_kept_too(self, coro: Coro) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        self._strong.add(task)
        task.add_done_callback(self._strong.discard)

    async def go_awaited(self, coro: Coro) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        await task

    def go_returned(self, coro: Coro) -> "asyncio.Task[None]":
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        return task

    def go_replaced(self, coro: Coro) -> None:
        self._replaced.add(asyncio.create_task(coro))  # rebound to a set in reset()

    def go_unknown(self, other: Any, coro: Coro) -> None:
        other._tasks.add(asyncio.create_task(coro))  # not self: not known


def go_module(coro: Coro) -> None:
    t = asyncio.create_task(coro)  # error: TRF002:9
    _mod.add(t)
    _aliased.add(asyncio.create_task(coro))  # error: TRF001:18


def go_module_kept(coro: Coro) -> None:
    _strong.add(asyncio.create_task(coro))
    _rebound.add(asyncio.create_task(coro))


def go_shadowed(coro: Coro, _mod: Set["asyncio.Task[None]"]) -> None:
    _mod.add(asyncio.create_task(coro))



class Prewarm:
    """A weak reference to a task keeps nothing (livekit-agents' connection pool)."""

    def __init__(self) -> None:
        self._task: Any = None
        self._proxy: Any = None

    def prewarm(self, coro: Coro) -> None:
        task = asyncio.create_task(coro)  # error: TRF002:16
        self._task = weakref.ref(task)

    def prewarm_proxy(self, coro: Coro) -> None:
        task = asyncio.create_task(coro)  # error: TRF002:16
        self._proxy = weakref.proxy(task)

    def prewarm_kept(self, coro: Coro, keep: Set[Any]) -> None:
        task = asyncio.create_task(coro)
        self._task = weakref.ref(task)
        keep.add(task)
        task.add_done_callback(keep.discard)
