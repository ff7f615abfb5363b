"""Shapes users asked Ruff and flake8-async for (issue 12, part 2), with safe twins."""
import asyncio
import functools
import logging
import signal
from functools import partial
from typing import Any, List, Set

logger = logging.getLogger(__name__)
background: Set["asyncio.Task[None]"] = set()


async def job() -> None:
    await asyncio.sleep(1)


def register(task: object) -> None:
    background.add(task)  # type: ignore[arg-type]


# ---- the keep-idiom on a local set: task, set and callback form a cycle -------
async def local_set_idiom() -> None:
    tasks: Set["asyncio.Task[None]"] = set()
    task = asyncio.create_task(job())  # error: TRF002:12
    tasks.add(task)
    task.add_done_callback(tasks.discard)


async def local_set_idiom_in_loop(n: int) -> None:
    tasks = set()
    for _ in range(n):
        task = asyncio.create_task(job())  # error: TRF002:16
        tasks.add(task)
        task.add_done_callback(tasks.discard)


class Owner:
    log = logging.getLogger("owner")

    def __init__(self) -> None:
        self.tasks: Set["asyncio.Task[None]"] = set()

    def set_leaves_the_frame(self) -> None:
        tasks: Set["asyncio.Task[None]"] = set()
        self.tasks = tasks
        task = asyncio.create_task(job())
        tasks.add(task)
        task.add_done_callback(tasks.discard)

    def logs_through_self(self) -> None:
        task = asyncio.create_task(job())  # error: TRF002:16
        self.log.debug("started %r", task)


async def local_set_returned() -> Set["asyncio.Task[None]"]:
    tasks: Set["asyncio.Task[None]"] = set()
    task = asyncio.create_task(job())
    tasks.add(task)
    task.add_done_callback(tasks.discard)
    return tasks


async def local_set_awaited() -> None:
    tasks: Set["asyncio.Task[None]"] = set()
    task = asyncio.create_task(job())
    tasks.add(task)
    task.add_done_callback(tasks.discard)
    await asyncio.gather(*tasks)


async def local_set_held_by_a_kept_task(keeper: "asyncio.Task[None]") -> None:
    tasks: Set["asyncio.Task[None]"] = set()
    task = asyncio.create_task(job())
    tasks.add(task)
    keeper.add_done_callback(tasks.discard)  # keeper (a parameter) holds the set


async def module_set_idiom() -> None:
    task = asyncio.create_task(job())
    background.add(task)
    task.add_done_callback(background.discard)


# ---- formatting and logging the handle keep nothing ---------------------------
async def printed() -> None:
    a = asyncio.create_task(job())  # error: TRF002:9
    b = asyncio.create_task(job())  # error: TRF002:9
    c = asyncio.create_task(job())  # error: TRF002:9
    print(repr(a), str(b), f"{c!r}")


async def percent_and_format() -> None:
    a = asyncio.create_task(job())  # error: TRF002:9
    b = asyncio.create_task(job())  # error: TRF002:9
    c = asyncio.create_task(job())  # error: TRF002:9
    text = "%s and %r" % (a, b) + "{}".format(c)
    print(text)


async def logged() -> None:
    a = asyncio.create_task(job())  # error: TRF002:9
    b = asyncio.create_task(job())  # error: TRF002:9
    c = asyncio.create_task(job())  # error: TRF002:9
    logger.info("started %s", a)
    logging.warning("started %s", b)
    logging.getLogger(__name__).exception("started %s", c, exc_info=True)


class Recorder:
    def info(self, *args: Any) -> None:
        self.seen = args


async def not_a_logger(custom: Recorder) -> None:
    a = asyncio.create_task(job())
    custom.info("started", a)


async def logger_rebound_locally() -> None:
    logger = Recorder()
    a = asyncio.create_task(job())
    logger.info("started", a)


async def unknown_call_keeps() -> None:
    a = asyncio.create_task(job())
    register(a)
    text = "%s" % register(a)
    print(text)


async def formatted_and_kept() -> None:
    a = asyncio.create_task(job())
    logger.info("started %s", a)
    background.add(a)
    a.add_done_callback(background.discard)


# ---- a spawner wrapped by functools.partial, handed to a callback API --------
def partial_spawners(loop: asyncio.AbstractEventLoop) -> None:
    loop.call_soon(functools.partial(asyncio.create_task, job()))  # error: TRF001:38
    loop.call_later(1, partial(asyncio.ensure_future, job()))  # error: TRF001:32
    loop.add_signal_handler(signal.SIGTERM, partial(loop.create_task, job()))  # error: TRF001:53
    loop.call_soon_threadsafe(lambda: asyncio.create_task(job()))  # error: TRF001:39


def partial_safe(loop: asyncio.AbstractEventLoop, keep: List[object]) -> None:
    loop.call_soon(functools.partial(register, job()))
    loop.call_soon(partial(print, asyncio.create_task))
    keep.append(partial(asyncio.create_task, job()))
    loop.call_soon(lambda: register(asyncio.create_task(job())))
