# flake8-args: --extend-select=TRF006
"""TRF006 task-set-never-pruned (off by default): a long-lived collection only grows."""
import asyncio
import collections
import weakref
from typing import Dict, List, Set

_TASKS: Set["asyncio.Task[None]"] = set()
_PRUNED: Set["asyncio.Task[None]"] = set()


async def job() -> None:
    await asyncio.sleep(1)


def start() -> None:
    task = asyncio.create_task(job())
    _TASKS.add(task)  # error: TRF006:5


def start_pruned() -> None:
    task = asyncio.create_task(job())
    _PRUNED.add(task)
    task.add_done_callback(_PRUNED.discard)


class Grows:
    def __init__(self) -> None:
        self.tasks: List["asyncio.Task[None]"] = []
        self.by_id: Dict[int, "asyncio.Task[None]"] = {}

    def start(self) -> None:
        self.tasks.append(asyncio.create_task(job()))  # error: TRF006:9
        task = asyncio.create_task(job())
        self.by_id[id(task)] = task  # error: TRF006:9


class Pruned:
    def __init__(self) -> None:
        self.tasks: Set["asyncio.Task[None]"] = set()
        self.by_id: Dict[int, "asyncio.Task[None]"] = {}
        self.running: List["asyncio.Task[None]"] = []
        self.other: Set["asyncio.Task[None]"] = set()

    def start(self) -> None:
        task = asyncio.create_task(job())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        self.by_id[id(task)] = task
        self.running.append(task)
        self.other.add(task)
        self.not_tasks = set()
        self.not_tasks.add(1)

    def forget(self, key: int) -> None:
        del self.by_id[key]

    def reset(self) -> None:
        self.running = []

    def prune(self) -> None:
        self.other -= {t for t in self.other if t.done()}


class Proxy:
    def __init__(self) -> None:
        self.connections: Dict[object, "asyncio.Task[None]"] = {}

    def start(self, conn: object) -> None:
        self.connections[conn] = asyncio.create_task(job())


class Connection:
    def __init__(self, proxy: Proxy) -> None:
        self.proxy = proxy

    def close(self) -> None:
        self.proxy.connections.pop(self, None)


# ---- bounds the code shows: silent ---------------------------------------------
class OneTaskPerSetup:
    def __init__(self, n: int) -> None:
        self.tasks: List["asyncio.Task[None]"] = [asyncio.create_task(job())]
        self.tasks.append(asyncio.create_task(job()))
        for _ in range(n):
            self.tasks.append(asyncio.create_task(job()))


class PerRequestHelper:
    """Lives for one ``async with`` block; its exit drains the collection."""

    def __init__(self) -> None:
        self.pending: Set["asyncio.Task[None]"] = set()

    def visit(self) -> None:
        self.pending.add(asyncio.create_task(job()))

    async def __aenter__(self) -> "PerRequestHelper":
        return self

    async def __aexit__(self, *exc: object) -> None:
        for task in self.pending:
            await task


# ---- look-alikes that still grow: reported -------------------------------------
class SetupCallbackGrows:
    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.tasks: Set["asyncio.Task[None]"] = set()

        def on_event() -> None:
            self.tasks.add(asyncio.create_task(job()))  # error: TRF006:13

        loop.call_soon(on_event)


class DrainedOnlyAtClose:
    """Gathered as a whole at close: it finishes at a known point (issue 20), so
    it is not "never pruned", even for an owner that lives long (silent)."""

    def __init__(self) -> None:
        self.futures: Set["asyncio.Future[None]"] = set()

    def on_lost_worker(self) -> None:
        self.futures.add(asyncio.ensure_future(job()))

    async def close(self) -> None:
        await asyncio.gather(*self.futures)

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


# ---- issue 20: drained as a whole, pruned through a default: silent ----------------
class WaitedOnAsAWhole:
    def __init__(self) -> None:
        self.pending: List["asyncio.Task[None]"] = []

    def start(self) -> None:
        self.pending.append(asyncio.create_task(job()))

    async def run(self) -> None:
        await asyncio.wait(list(self.pending))


_STARTED: List["asyncio.Task[None]"] = []


def start_module_task() -> None:
    _STARTED.append(asyncio.create_task(job()))


async def finish_module_tasks() -> None:
    await asyncio.gather(*_STARTED)


class PrunedThroughADefault:
    def __init__(self) -> None:
        self._tasks: Set["asyncio.Task[None]"] = set()

    def request(self) -> None:
        t = asyncio.create_task(job())
        self._tasks.add(t)

        def done(t: "asyncio.Task[None]", _tasks: Set["asyncio.Task[None]"] = self._tasks) -> None:
            _tasks.remove(t)

        t.add_done_callback(done)


# ---- the message fits the collection: reported ---------------------------------------
class ListGrows:
    def __init__(self) -> None:
        self.queue: "collections.deque[asyncio.Task[None]]" = collections.deque()

    def start(self) -> None:
        self.queue.appendleft(asyncio.create_task(job()))  # error: TRF006:9

    def other(self) -> None:
        self.queue.count(1)


# ---- one task per constant key: the dict cannot grow (asyncua's HA client): silent ------
class OneTaskPerName:
    def __init__(self) -> None:
        self._tasks: Dict[str, "asyncio.Task[None]"] = {}

    def start(self) -> None:
        self._tasks["reconnect"] = asyncio.create_task(job())
        self._tasks["renew"] = asyncio.create_task(job())


class SomeKeysVary:
    def __init__(self) -> None:
        self._tasks: Dict[str, "asyncio.Task[None]"] = {}

    def start(self, name: str) -> None:
        self._tasks["reconnect"] = asyncio.create_task(job())  # error: TRF006:9
        self._tasks[name] = asyncio.create_task(job())  # error: TRF006:9


class OneTaskPerOwnAttribute:
    """Keyed by an attribute of the instance (asyncua's HA client): one object, one
    task per instance."""

    def __init__(self) -> None:
        self.manager = object()
        self._manager_task: Dict[object, "asyncio.Task[None]"] = {}

    def start(self) -> None:
        self._manager_task[self.manager] = asyncio.create_task(job())


class OneTaskPerClient:
    def __init__(self, clients: List[object]) -> None:
        self.clients = clients
        self._keepalive: Dict[object, "asyncio.Task[None]"] = {}

    def start(self) -> None:
        for client in self.clients:
            self._keepalive[client] = asyncio.create_task(job())  # error: TRF006:13


# ---- drained through a filtered copy (litellm's harness runtime): silent -----------------
class DrainedThroughAStarredCopy:
    def __init__(self) -> None:
        self.approvals: List["asyncio.Future[None]"] = []
        self.producer: "asyncio.Task[None] | None" = None

    def approve(self) -> None:
        self.approvals.append(asyncio.ensure_future(job()))

    async def stop(self) -> None:
        live = (self.producer,) if self.producer is not None else ()
        pending = (*(task for task in self.approvals if not task.done()), *live)
        for task in pending:
            task.cancel()
        if pending:
            await asyncio.wait(pending)


class StarredCopyOfSomethingElse:
    def __init__(self) -> None:
        self.approvals: List["asyncio.Future[None]"] = []

    def approve(self) -> None:
        self.approvals.append(asyncio.ensure_future(job()))  # error: TRF006:9

    async def stop(self, others: List["asyncio.Task[None]"]) -> None:
        pending = (*(task for task in others if not task.done()),)
        await asyncio.wait(pending)


class DrainedThroughAFilteredCopy:
    def __init__(self) -> None:
        self._tasks: Set["asyncio.Task[None]"] = set()
        self._others: Dict[int, "asyncio.Task[None]"] = {}
        self._listed: List["asyncio.Task[None]"] = []

    def spawn(self, n: int) -> None:
        self._tasks.add(asyncio.create_task(job()))
        self._others[n] = asyncio.create_task(job())
        self._listed.append(asyncio.create_task(job()))

    async def close(self) -> None:
        pending = [t for t in self._tasks if not t.done()]
        for t in pending:
            t.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        await asyncio.wait({t for t in self._others.values() if not t.done()})
        await asyncio.gather(*(t for t in list(self._listed) if not t.cancelled()))


class FilteredCopyRebound:
    """A local bound to a copy and then to something else is not a copy."""

    def __init__(self) -> None:
        self._tasks: Set["asyncio.Task[None]"] = set()

    def spawn(self) -> None:
        self._tasks.add(asyncio.create_task(job()))  # error: TRF006:9

    async def close(self, more: List["asyncio.Task[None]"]) -> None:
        pending = [t for t in self._tasks if not t.done()]
        pending = more
        await asyncio.gather(*pending)


# ---- a weak collection prunes itself: silent (see trf002_weak_collections.py) --------
class WeakTasks:
    def __init__(self) -> None:
        self._tasks: "weakref.WeakSet[asyncio.Task[None]]" = weakref.WeakSet()

    def spawn(self) -> "asyncio.Task[None]":
        task = asyncio.create_task(job())
        self._tasks.add(task)
        return task


# ---- a task that only runs asyncio.to_thread: its thread holds it (no other rule
# reports it), but the collection grows with it all the same ----------------------------
def blocking_work() -> None:
    pass


class ThreadTasks:
    def __init__(self) -> None:
        self._tasks: "Set[asyncio.Task[None]]" = set()
        self._by_name: "Dict[str, asyncio.Task[None]]" = {}

    def submit(self, name: str) -> None:
        self._tasks.add(asyncio.create_task(asyncio.to_thread(blocking_work)))  # error: TRF006:9
        task = asyncio.create_task(asyncio.to_thread(blocking_work))
        self._by_name[name] = task  # error: TRF006:9
