"""TRF003: cleanup inside a timeout block that only runs on the normal path (issue 20).

When the timeout hits at an await inside the block, the code after that await
in the block never runs.  Only a ``finally``, an ``except`` that handles the
timeout, or code after the block on the exception path protects a task.
"""
import asyncio


async def job() -> None:
    await asyncio.sleep(1)


# ---- cleaned up after the await, inside the block: reported ----------------------
async def race_then_cancel_the_losers() -> None:
    async with asyncio.timeout(5):  # error: TRF003:16
        first = asyncio.create_task(job())
        second = asyncio.create_task(job())
        done, pending = await asyncio.wait({first, second}, return_when=asyncio.FIRST_COMPLETED)
        for task in pending:
            task.cancel()


async def spawned_before_the_block() -> None:
    helper = asyncio.create_task(job())
    async with asyncio.timeout(5):  # error: TRF003:16
        await job()
        helper.cancel()


async def after_an_async_with(lock: asyncio.Lock) -> None:
    async with asyncio.timeout(5):  # error: TRF003:16
        helper = asyncio.create_task(job())
        async with lock:
            pass
        helper.cancel()


# ---- protected: silent ---------------------------------------------------------------
async def race_with_finally() -> None:
    async with asyncio.timeout(5):
        first = asyncio.create_task(job())
        second = asyncio.create_task(job())
        try:
            done, pending = await asyncio.wait({first, second}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            first.cancel()
            second.cancel()


async def race_with_a_handler_that_cancels() -> None:
    async with asyncio.timeout(5):
        first = asyncio.create_task(job())
        try:
            await asyncio.wait({first}, timeout=1)
        except asyncio.CancelledError:
            first.cancel()
            raise
        first.cancel()


async def cleanup_after_the_block_on_the_exception_path() -> None:
    first = asyncio.create_task(job())
    try:
        async with asyncio.timeout(5):
            await asyncio.wait({first}, return_when=asyncio.FIRST_COMPLETED)
    except TimeoutError:
        pass
    first.cancel()


async def awaited_in_the_block() -> None:
    async with asyncio.timeout(5):
        helper = asyncio.create_task(job())
        await helper


async def gathered_in_the_block() -> None:
    async with asyncio.timeout(5):
        first = asyncio.create_task(job())
        second = asyncio.create_task(job())
        await asyncio.gather(first, second)


async def kept_before_any_await(keep: set) -> None:
    async with asyncio.timeout(5):
        helper = asyncio.create_task(job())
        keep.add(helper)
        await job()
        helper.cancel()
