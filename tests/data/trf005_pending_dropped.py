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
