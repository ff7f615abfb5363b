"""A task held by a local of an async generator across a ``yield``: a consumer
that stops early (``break``, an exception in its loop, dropping the generator)
closes it there, ``GeneratorExit`` leaves the frame, and the task is dropped
while it runs (aiodynamo's next-page prefetch, a miss of the nineteenth trial).
Each reported case has a silent twin."""
import asyncio
import contextlib


async def fetch(page):
    await asyncio.sleep(1)
    return [page]


async def pages():
    task = asyncio.create_task(fetch(0))
    while True:
        result = await task
        task = asyncio.create_task(fetch(1))  # error: TRF007:16
        for item in result:
            yield item


async def pages_cancel_on_close():
    task = asyncio.create_task(fetch(0))
    try:
        while True:
            result = await task
            task = asyncio.create_task(fetch(1))
            for item in result:
                yield item
    finally:
        task.cancel()


async def pages_catching_cancellation_only():
    task = asyncio.create_task(fetch(0))
    try:
        while True:
            result = await task
            task = asyncio.create_task(fetch(1))  # error: TRF007:20
            for item in result:
                yield item
    except asyncio.CancelledError:
        task.cancel()
        raise


async def pages_catching_close():
    task = asyncio.create_task(fetch(0))
    try:
        while True:
            result = await task
            task = asyncio.create_task(fetch(1))
            for item in result:
                yield item
    except GeneratorExit:
        task.cancel()
        raise


async def awaited_before_each_yield():
    while True:
        task = asyncio.create_task(fetch(0))
        yield await task


@contextlib.asynccontextmanager
async def running():
    # left at its ``yield`` by the block's end, or its exception (a failure path)
    task = asyncio.create_task(fetch(0))
    yield
    task.cancel()


async def cleanup_context(app):
    # yields once, outside any loop: driven as a context manager (aiohttp's
    # cleanup_ctx, a lifespan), which no consumer stops early
    task = asyncio.create_task(fetch(0))
    yield
    task.cancel()


CLOSING = (GeneratorExit, asyncio.CancelledError)


async def pages_catching_what_it_cannot_read():
    task = asyncio.create_task(fetch(0))
    try:
        while True:
            result = await task
            task = asyncio.create_task(fetch(1))
            for item in result:
                yield item
    except CLOSING[0]:
        task.cancel()
        raise
