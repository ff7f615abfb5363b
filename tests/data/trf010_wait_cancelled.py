# flake8-args: --extend-select=TRF010
"""TRF010 (opt-in): ``asyncio.wait()`` cancelled with the function (a caller's
timeout, a shutdown) does not cancel the tasks it waits on, and those held only by
locals run on, held by nobody: nodriver's ``Browser.wait``, aiocrawler's batch of
requests, speechmatics' consumer and producer, misses of the twenty-fourth and
twenty-fifth trials.  One finding per wait, at the wait.  The twins: a ``finally``
or a handler of the cancellation that cancels them, a task kept elsewhere, a task
that waits for an event, a coroutine that never suspends, a wait of a name bound
twice, a ``TaskGroup``; a handler of an alias of ``CancelledError`` or of a constant
(taken to catch it), a list stored in ``self`` before it is filled (a fresh-eyes
review's false alarms)."""
import asyncio
from asyncio import CancelledError as Cancelled
from typing import Any, List, Set

STOP_ERRORS = (asyncio.CancelledError, KeyboardInterrupt)


async def update() -> None:
    await asyncio.sleep(1)


async def quick() -> None:
    print("one step")


async def both(seconds: float) -> None:
    updating = asyncio.create_task(update())
    sleeping = asyncio.create_task(asyncio.sleep(seconds))
    await asyncio.wait([updating, sleeping], return_when=asyncio.ALL_COMPLETED)  # error: TRF010:11


async def batch(items: List[Any]) -> None:
    tasks = []
    for item in items:
        tasks.append(asyncio.ensure_future(update()))
    if tasks:
        await asyncio.wait(tasks)  # error: TRF010:15


async def first_done() -> None:
    consumer = asyncio.create_task(update())
    producer = asyncio.create_task(update())
    done, pending = await asyncio.wait(  # error: TRF010:27
        [consumer, producer], return_when=asyncio.FIRST_EXCEPTION
    )
    for task in pending:
        task.cancel()
    for task in done:
        task.result()


async def cancelled_in_finally() -> None:
    consumer = asyncio.create_task(update())
    producer = asyncio.create_task(update())
    try:
        await asyncio.wait([consumer, producer])
    finally:
        consumer.cancel()
        producer.cancel()


async def cancelled_in_handler() -> None:
    tasks = [asyncio.create_task(update()) for _ in range(3)]
    try:
        await asyncio.wait(tasks)
    except asyncio.CancelledError:
        for task in tasks:
            task.cancel()
        raise


class Keeper:
    def __init__(self) -> None:
        self._tasks: Set["asyncio.Task[None]"] = set()

    async def kept(self) -> None:
        task = asyncio.create_task(update())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        await asyncio.wait({task})


async def on_event(stop: asyncio.Event) -> None:
    stopping = asyncio.create_task(stop.wait())
    await asyncio.wait({stopping}, timeout=1)
    stopping.cancel()


async def never_waits() -> None:
    task = asyncio.create_task(quick())
    await asyncio.wait({task})


async def bound_twice(other: "asyncio.Task[None]") -> None:
    task = asyncio.create_task(update())
    waited = {task}
    waited = {other}
    await asyncio.wait(waited)
    await task


async def grouped() -> None:
    async with asyncio.TaskGroup() as group:
        group.create_task(update())
        group.create_task(update())


async def alias_handler() -> None:
    task = asyncio.create_task(update())
    try:
        await asyncio.wait({task})
    except Cancelled:
        task.cancel()
        raise


async def constant_handler() -> None:
    task = asyncio.create_task(update())
    try:
        await asyncio.wait({task})
    except STOP_ERRORS:
        task.cancel()
        raise


async def narrow_handler() -> None:
    task = asyncio.create_task(update())
    try:
        await asyncio.wait({task})  # error: TRF010:15
    except (ValueError, asyncio.TimeoutError):
        task.cancel()
        raise


class Runner:
    async def stored_first(self, count: int) -> None:
        tasks: List[Any] = []
        self._running = tasks
        for _ in range(count):
            tasks.append(asyncio.create_task(update()))
        await asyncio.wait(tasks)


async def relay(words: Any, check: Any) -> None:
    """A relay that keeps its tasks in the set it waits on (TRF005 is silent, the
    pending set dropped in a pass drops nothing): a cancellation at the wait drops
    the set (wapiti's attack modules, the thirty-sixth trial)."""
    tasks: Set[Any] = set()
    while True:
        tasks.add(asyncio.create_task(check(next(words))))
        if not tasks:
            break
        done, pending = await asyncio.wait(tasks, timeout=0.01, return_when=asyncio.FIRST_COMPLETED)  # error: TRF010:31
        for task in done:
            tasks.remove(task)


async def relay_cleaned(words: Any, check: Any) -> None:
    tasks: Set[Any] = set()
    try:
        while True:
            tasks.add(asyncio.create_task(check(next(words))))
            if not tasks:
                break
            done, pending = await asyncio.wait(tasks, timeout=0.01, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                tasks.remove(task)
    finally:
        for task in tasks:
            task.cancel()
