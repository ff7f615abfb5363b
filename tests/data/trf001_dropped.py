"""TRF001 dropped-task: the handle of a new task is thrown away at once."""
import asyncio
import asyncio as aio
import signal
from typing import Optional
from asyncio import create_task as ct
from asyncio import ensure_future, tasks


async def job() -> None:
    await asyncio.sleep(1)


async def bare_spawns() -> None:
    asyncio.create_task(job())  # error: TRF001:5
    aio.create_task(job())  # error: TRF001:5
    ct(job())  # error: TRF001:5
    ensure_future(job())  # error: TRF001:5
    asyncio.ensure_future(job())  # error: TRF001:5
    asyncio.Task(job())  # error: TRF001:5
    tasks.create_task(job())  # error: TRF001:5
    asyncio.tasks.create_task(job())  # error: TRF001:5


def sync_function_spawns() -> None:
    asyncio.create_task(job())  # error: TRF001:5


async def imports_inside() -> None:
    from asyncio import create_task as spawn

    spawn(job())  # error: TRF001:5


async def loops(loop: asyncio.AbstractEventLoop) -> None:
    loop.create_task(job())  # error: TRF001:5
    running = asyncio.get_running_loop()
    running.create_task(job())  # error: TRF001:5
    asyncio.get_running_loop().create_task(job())  # error: TRF001:5
    asyncio.get_event_loop().create_task(job())  # error: TRF001:5


class Server:
    def __init__(self) -> None:
        self._loop = asyncio.new_event_loop()
        self.worker_loop = asyncio.new_event_loop()
        self.event_loop = asyncio.new_event_loop()

    def start(self) -> None:
        self._loop.create_task(job())  # error: TRF001:9
        self.worker_loop.create_task(job())  # error: TRF001:9
        self.event_loop.create_task(job())  # error: TRF001:9


async def method_on_fresh_handle() -> None:
    asyncio.create_task(job()).add_done_callback(print)  # error: TRF001:5
    asyncio.create_task(job()).set_name("x")  # error: TRF001:5


async def comprehensions() -> None:
    [asyncio.create_task(job()) for _ in range(3)]  # error: TRF001:6
    {asyncio.create_task(job()) for _ in range(3)}  # error: TRF001:6
    list(asyncio.create_task(job()) for _ in range(3))  # unknown call: may keep them


async def gathers() -> None:
    asyncio.gather(job(), job())  # error: TRF001:5
    await asyncio.gather(job(), job())
    # only looked at: a done callback keeps nothing (a trial's cron library)
    asyncio.gather(job(), return_exceptions=True).add_done_callback(print)  # error: TRF001:5
    gathered = asyncio.gather(job())
    gathered.add_done_callback(print)
    await gathered


async def callbacks(loop: asyncio.AbstractEventLoop) -> None:
    loop.call_soon(asyncio.create_task, job())  # error: TRF001:20
    loop.call_later(1, asyncio.ensure_future, job())  # error: TRF001:24
    loop.add_signal_handler(signal.SIGTERM, lambda: asyncio.create_task(job()))  # error: TRF001:53
    loop.call_soon_threadsafe(lambda: loop.create_task(job()))  # error: TRF001:39
    fut = loop.create_future()
    fut.add_done_callback(lambda _: asyncio.create_task(job()))  # error: TRF001:37
    await fut


asyncio.ensure_future(job())  # error: TRF001:1


async def multi_line() -> None:
    asyncio.create_task(  # error: TRF001:5
        job()
    )
    (
        asyncio.create_task(job())  # error: TRF001:9
    )


# ---- safe look-alikes: no finding ------------------------------------------
background = set()


async def safe_shapes(loop: asyncio.AbstractEventLoop) -> None:
    task = asyncio.create_task(job())
    background.add(task)
    task.add_done_callback(background.discard)
    await asyncio.create_task(job())
    kept = asyncio.create_task(job())
    await kept
    background.add(asyncio.create_task(job()))
    print(asyncio.create_task(job()) in background)  # error: TRF001:11


async def task_groups() -> None:
    async with asyncio.TaskGroup() as tg:
        tg.create_task(job())
        tg.create_task(job()).add_done_callback(print)


async def not_loops(nursery, scheduler, pool) -> None:
    nursery.create_task(job())
    scheduler.ensure_future(job())
    pool.loop_helper.create_task(job())


async def existing_futures(fut: "asyncio.Future[None]", holder) -> None:
    asyncio.ensure_future(fut)
    asyncio.ensure_future(holder.fut)
    asyncio.ensure_future(holder.futs[0])


def not_asyncio(create_task, ensure_future_like) -> None:
    create_task(job())
    ensure_future_like(job())


def run_coroutine_threadsafe_is_a_spawner(loop: asyncio.AbstractEventLoop) -> None:
    asyncio.run_coroutine_threadsafe(job(), loop)  # error: TRF001:5


async def returned() -> "asyncio.Task[None]":
    return asyncio.create_task(job())


async def yielded():
    yield asyncio.create_task(job())


def callbacks_that_keep(loop: asyncio.AbstractEventLoop) -> None:
    loop.call_soon(lambda: background.add(asyncio.create_task(job())))
    loop.call_soon(print, asyncio.create_task)


class TypedLoops:
    aio: asyncio.AbstractEventLoop

    def __init__(self, reactor: "asyncio.AbstractEventLoop", other: Optional[asyncio.BaseEventLoop]) -> None:
        self.io = reactor
        self.other = other
        self.maybe: Optional[asyncio.AbstractEventLoop] = None

    def start(self, ioloop: asyncio.AbstractEventLoop) -> None:
        ioloop.create_task(job())  # error: TRF001:9
        self.io.create_task(job())  # error: TRF001:9
        self.aio.create_task(job())  # error: TRF001:9
        self.other.create_task(job())  # error: TRF001:9
        if self.maybe is not None:
            self.maybe.create_task(job())  # error: TRF001:13
