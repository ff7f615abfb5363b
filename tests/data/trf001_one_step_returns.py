"""A spawned coroutine that never waits and returns the value of a call that makes
no task runs to its end in its first step: its task is never pending unkept, also
when the future of ``run_coroutine_threadsafe`` is dropped after a timed-out
``result()`` (healthwatch's ``_collect()``, a false alarm of the twenty-ninth trial
of issue 32).  The twins return a new task (asyncio's spawn, a local bound to one, a
helper of the file that returns one): the done task would be all that holds it."""
import asyncio
import concurrent.futures
import threading
import weakref


def collect(loop):
    return [task.get_name() for task in asyncio.all_tasks(loop)]


class Dashboard:
    def tasks(self):
        async def _collect():
            return collect(self.loop)

        future = asyncio.run_coroutine_threadsafe(_collect(), self.loop)
        try:
            return future.result(timeout=0.2)
        except concurrent.futures.TimeoutError:
            return {"frozen": True}


async def _snapshot(loop):
    return asyncio.all_tasks(loop)


def snapshot(loop):
    asyncio.create_task(_snapshot(loop))


async def _make():
    return asyncio.create_task(asyncio.sleep(10))


def spawn_make():
    asyncio.create_task(_make())  # error: TRF001:5


async def _named():
    task = asyncio.create_task(asyncio.sleep(10))
    return task


def spawn_named():
    asyncio.create_task(_named())  # error: TRF001:5


def _helper():
    return asyncio.ensure_future(asyncio.sleep(10))


async def _through_helper():
    return _helper()


def spawn_through_helper():
    asyncio.create_task(_through_helper())  # error: TRF001:5


class Counter:
    """Built of constants, items of an attribute, arithmetic, displays of those and
    builtins that make no task: no new task (a reviewer's false alarms)."""

    def __init__(self, loop):
        self.loop = loop
        self.items = []

    def bump(self):
        self.loop.create_task(self._count())
        self.loop.create_task(self._first())
        self.loop.create_task(self._summary())
        self.loop.create_task(self._gathered())  # error: TRF001:9
        self.loop.create_task(self._either(None))  # error: TRF001:9

    async def _count(self):
        self.items.append(1)
        return len(self.items) + 1

    async def _first(self):
        return self.items[0]

    async def _summary(self):
        return {"count": str(len(self.items)), "first": f"{self.items[0]}"}

    async def _gathered(self):
        return asyncio.gather(_make(), _make())

    async def _either(self, task):
        return task or asyncio.create_task(asyncio.sleep(10))


class Box:
    items: list = []


class Maker:
    def __init__(self, loop):
        self.loop = loop

    def start(self):
        self.loop.create_task(self._boxed())  # error: TRF001:9

    async def _boxed(self):
        box = Box()
        box.items = [asyncio.create_task(asyncio.sleep(10))]
        return box.items[0]


class Record:
    def __init__(self, name):
        self.name = name
        self.future = None


class Runner:
    """A coroutine that never waits and returns a record it also files in a
    collection of the runner, the record holding the task it made: the runner
    keeps the record, and so the task (praisonaiagents' background runner, a
    false alarm of the thirty-fifth trial's sweep).  The twins file the record on
    one path only, bind its name twice, return it before filing it, or do not file it: the done task would be
    all that holds what it returned."""

    def __init__(self, loop):
        self.loop = loop
        self.lock = threading.Lock()
        self.records = {}

    async def filed(self, func):
        record = Record(func.__name__)
        with self.lock:
            self.records[record.name] = record
        record.future = asyncio.create_task(func())
        return record

    async def filed_on_one_path(self, func, keep):
        record = Record(func.__name__)
        if keep:
            self.records[record.name] = record
        record.future = asyncio.create_task(func())
        return record

    async def bound_twice(self, func):
        record = Record(func.__name__)
        self.records[record.name] = record
        record = Record(func.__name__)
        record.future = asyncio.create_task(func())
        return record

    async def returned_before_filing(self, func, early):
        record = Record(func.__name__)
        record.future = asyncio.create_task(func())
        if early:
            return record
        self.records[record.name] = record
        return record

    async def not_filed(self, func):
        record = Record(func.__name__)
        record.future = asyncio.create_task(func())
        return record

    def submit(self, func):
        future = asyncio.run_coroutine_threadsafe(self.filed(func), self.loop)
        return future.result(timeout=5)

    def submit_one_path(self, func, keep):
        future = asyncio.run_coroutine_threadsafe(self.filed_on_one_path(func, keep), self.loop)
        return future.result(timeout=5)  # error: TRF003:16

    def submit_twice(self, func):
        future = asyncio.run_coroutine_threadsafe(self.bound_twice(func), self.loop)
        return future.result(timeout=5)  # error: TRF003:16

    def submit_early(self, func, early):
        future = asyncio.run_coroutine_threadsafe(self.returned_before_filing(func, early), self.loop)
        return future.result(timeout=5)  # error: TRF003:16

    def submit_not_filed(self, func):
        future = asyncio.run_coroutine_threadsafe(self.not_filed(func), self.loop)
        return future.result(timeout=5)  # error: TRF003:16


class Registry:
    """A weak collection does not keep the record, nor one it is taken out of again
    before the ``return`` (a fresh-eyes review's false silences)."""

    def __init__(self, loop):
        self.loop = loop
        self.weak = weakref.WeakSet()
        self.records = []

    async def weakly_filed(self, func):
        record = Record(func.__name__)
        self.weak.add(record)
        record.future = asyncio.create_task(func())
        return record

    async def filed_then_removed(self, func):
        record = Record(func.__name__)
        self.records.append(record)
        record.future = asyncio.create_task(func())
        self.records.remove(record)
        return record

    def start(self, func):
        asyncio.create_task(self.weakly_filed(func))  # error: TRF001:9
        asyncio.create_task(self.filed_then_removed(func))  # error: TRF001:9
