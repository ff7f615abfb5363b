"""TRF005: tasks all cancelled, then a wait with a timeout whose pending set is
left: the tasks it returns pending are still running after their cancellation
and the timeout, and nothing holds them once the frame ends (magg's server
runner, which logs "abandoning it" and returns: a miss of the thirty-ninth
trial)."""
import asyncio
import logging
from typing import Any, Set

log = logging.getLogger(__name__)


async def job() -> None:
    await asyncio.sleep(1)


# ---- cancelled, then abandoned after a timed wait: reported ---------------------
async def serve(shutdown: asyncio.Event) -> None:
    server = asyncio.create_task(job())
    stopper = asyncio.create_task(shutdown.wait())
    done, pending = await asyncio.wait([server, stopper], return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
    if pending:
        _, stuck = await asyncio.wait(pending, timeout=5)  # error: TRF005:26
        if stuck:
            log.warning("did not stop within 5 s, abandoning it")
    print(done)


async def stop_workers(count: int) -> None:
    workers = [asyncio.create_task(job()) for _ in range(count)]
    for worker in workers:
        worker.cancel()
    await asyncio.wait(workers, timeout=2.0)  # error: TRF005:11


async def cancelled_again(count: int) -> None:
    workers = [asyncio.create_task(job()) for _ in range(count)]
    for worker in workers:
        worker.cancel()
    _, stuck = await asyncio.wait(workers, timeout=2.0)  # error: TRF005:22
    for worker in stuck:
        worker.cancel()  # (still running: a cancel is no fix)


async def lost_before_the_try(client: Any) -> None:
    keepalive = asyncio.create_task(job())  # error: TRF007:17
    await client.connect()
    try:
        await client.run()
    finally:
        keepalive.cancel()
        await asyncio.wait([keepalive], timeout=1)


# ---- the same shapes, the tasks finished or kept: no finding -------------------
async def serve_and_wait(shutdown: asyncio.Event) -> None:
    server = asyncio.create_task(job())
    stopper = asyncio.create_task(shutdown.wait())
    done, pending = await asyncio.wait([server, stopper], return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
    if pending:
        _, stuck = await asyncio.wait(pending, timeout=5)
        if stuck:
            await asyncio.gather(*stuck, return_exceptions=True)
    print(done)


class Runner:
    def __init__(self) -> None:
        self.stuck: Set["asyncio.Task[None]"] = set()
        self.server: Any = None

    async def serve_and_keep(self) -> None:
        server = asyncio.create_task(job())
        server.cancel()
        _, stuck = await asyncio.wait([server], timeout=5)
        self.stuck = stuck

    async def serve_kept(self) -> None:
        server = asyncio.create_task(job())
        self.server = server
        server.cancel()
        await asyncio.wait([server], timeout=5)


async def stop_given(workers: Set["asyncio.Task[None]"]) -> None:
    for worker in workers:
        worker.cancel()
    await asyncio.wait(workers, timeout=2.0)


async def stop_without_timeout(count: int) -> None:
    workers = [asyncio.create_task(job()) for _ in range(count)]
    for worker in workers:
        worker.cancel()
    await asyncio.wait(workers, timeout=None)


async def stop_then_gather(count: int) -> None:
    workers = [asyncio.create_task(job()) for _ in range(count)]
    for worker in workers:
        worker.cancel()
    await asyncio.wait(workers, timeout=2.0)
    await asyncio.gather(*workers, return_exceptions=True)


async def cancel_after_the_wait(count: int) -> None:
    workers = [asyncio.create_task(job()) for _ in range(count)]
    _, pending = await asyncio.wait(workers, timeout=2.0)
    for worker in pending:
        worker.cancel()


async def retried(count: int) -> None:
    workers = {asyncio.create_task(job()) for _ in range(count)}
    while workers:
        for worker in workers:
            worker.cancel()
        _, workers = await asyncio.wait(workers, timeout=2.0)


async def until_all_done(count: int) -> None:
    workers = [asyncio.create_task(job()) for _ in range(count)]
    while not all(worker.done() for worker in workers):
        for worker in workers:
            worker.cancel()
        await asyncio.wait(workers, timeout=1.0)


async def no_timeout_by_name(count: int) -> None:
    workers = [asyncio.create_task(job()) for _ in range(count)]
    limit = None
    for worker in workers:
        worker.cancel()
    await asyncio.wait(workers, timeout=limit)
