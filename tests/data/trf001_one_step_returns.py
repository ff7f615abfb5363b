"""A spawned coroutine that never waits and returns the value of a call that makes
no task runs to its end in its first step: its task is never pending unkept, also
when the future of ``run_coroutine_threadsafe`` is dropped after a timed-out
``result()`` (healthwatch's ``_collect()``, a false alarm of the twenty-ninth trial
of issue 32).  The twins return a new task (asyncio's spawn, a local bound to one, a
helper of the file that returns one): the done task would be all that holds it."""
import asyncio
import concurrent.futures


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
