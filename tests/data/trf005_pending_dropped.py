"""TRF005 pending-tasks-dropped: asyncio.wait() returns with tasks still pending."""
import asyncio
from typing import Set

background: Set["asyncio.Task[None]"] = set()


async def job() -> None:
    await asyncio.sleep(1)


async def timeout_pending_unused() -> None:
    first = asyncio.create_task(job())
    second = asyncio.create_task(job())
    done, pending = await asyncio.wait({first, second}, timeout=5)  # error: TRF005:27
    print(done)


async def first_completed_underscore() -> None:
    first = asyncio.create_task(job())
    second = asyncio.create_task(job())
    done, _ = await asyncio.wait(  # error: TRF005:21
        [first, second], return_when=asyncio.FIRST_COMPLETED
    )
    for task in done:
        print(task.result())


async def result_dropped() -> None:
    tasks = [asyncio.create_task(job()) for _ in range(3)]
    await asyncio.wait(tasks, timeout=1)  # error: TRF005:11


async def spawns_inside_the_call() -> None:
    await asyncio.wait(  # error: TRF005:11
        {asyncio.create_task(job()), asyncio.create_task(job())},
        return_when=asyncio.FIRST_EXCEPTION,
    )


# ---- safe look-alikes: no finding ------------------------------------------
async def pending_cancelled() -> None:
    first = asyncio.create_task(job())
    second = asyncio.create_task(job())
    done, pending = await asyncio.wait({first, second}, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()


async def pending_gathered() -> None:
    tasks = {asyncio.create_task(job()) for _ in range(3)}
    done, pending = await asyncio.wait(tasks, timeout=1)
    await asyncio.gather(*pending)


async def pending_returned():
    tasks = {asyncio.create_task(job()) for _ in range(3)}
    done, pending = await asyncio.wait(tasks, timeout=1)
    return pending


async def tasks_kept_elsewhere() -> None:
    first = asyncio.create_task(job())
    background.add(first)
    first.add_done_callback(background.discard)
    await asyncio.wait({first}, timeout=1)


async def all_completed() -> None:
    tasks = [asyncio.create_task(job()) for _ in range(3)]
    await asyncio.wait(tasks)
    await asyncio.wait(tasks, return_when=asyncio.ALL_COMPLETED)


async def no_timeout_given(tasks) -> None:
    await asyncio.wait(tasks, timeout=1)


async def tasks_cancelled_later() -> None:
    first = asyncio.create_task(job())
    await asyncio.wait({first}, timeout=1)
    first.cancel()


# ---- the bounded pool: pending is rebound and fed back into the next wait --
async def process(item: object) -> None:
    await asyncio.sleep(1)


async def pool_forever(q: "asyncio.Queue[object]") -> None:
    pending: Set["asyncio.Task[None]"] = set()
    while True:
        item = await q.get()
        pending.add(asyncio.create_task(process(item)))
        if len(pending) >= 10:
            done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)


async def pool_for(items: "list[object]") -> None:
    pending = set()
    for item in items:
        pending.add(asyncio.create_task(process(item)))
        if len(pending) >= 10:
            done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
    await asyncio.gather(*pending)


async def pool_async_for(stream: "asyncio.Queue[object]") -> None:
    pending = set()
    async for item in stream:  # type: ignore[attr-defined]
        pending.add(asyncio.create_task(process(item)))
        if len(pending) >= 10:
            done, pending = await asyncio.wait(pending, timeout=5)


async def pool_while_condition(q: "asyncio.Queue[object]", running: "list[bool]") -> None:
    pending = set()
    while running:
        pending.add(asyncio.create_task(process(await q.get())))
        while len(pending) >= 10:
            _, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)


# ---- not a pool: the rebound set is not waited on again -----------------------
async def rebound_once() -> None:
    pending = {asyncio.create_task(job()), asyncio.create_task(job())}
    done, pending = await asyncio.wait(pending, timeout=1)  # error: TRF005:27


async def other_set_in_loop(items: "list[object]") -> None:
    for item in items:
        tasks = {asyncio.create_task(process(item))}
        done, pending = await asyncio.wait(tasks, timeout=1)  # error: TRF005:31


# ---- issue 20: the message names what was passed --------------------------------
async def inline_spawns_named() -> None:
    done, pending = await asyncio.wait(  # error: TRF005:27
        [asyncio.create_task(job()), asyncio.create_task(job())],
        return_when=asyncio.FIRST_COMPLETED,
    )
    print(done)


async def inline_spawns_pending_cancelled() -> None:
    done, pending = await asyncio.wait(
        [asyncio.create_task(job()), asyncio.create_task(job())],
        return_when=asyncio.FIRST_COMPLETED,
    )
    for task in pending:
        task.cancel()


class Connection:
    _closed: "asyncio.Future[None]"

    async def _read(self) -> None:
        await asyncio.sleep(1)

    async def race_beside_an_attribute(self) -> None:
        done, _ = await asyncio.wait(  # error: TRF005:25
            [asyncio.create_task(self._read()), self._closed], return_when=asyncio.FIRST_COMPLETED
        )
        print(done)

    async def race_beside_attribute_tasks(self, waiters: "list[asyncio.Future[None]]") -> None:
        reader = asyncio.create_task(self._read())
        await asyncio.wait([reader, *self.__dict__["waiters"]], timeout=1)  # error: TRF005:15

    async def race_beside_an_attribute_cancelled(self) -> None:
        done, pending = await asyncio.wait(
            [asyncio.create_task(self._read()), self._closed], return_when=asyncio.FIRST_COMPLETED
        )
        for task in pending:
            task.cancel()
