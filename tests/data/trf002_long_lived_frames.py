import asyncio
import logging

log = logging.getLogger(__name__)


# A loop that nothing leaves and that catches every exception: the set made
# before it holds its tasks while it runs.
async def serve_forever(queue, handle):
    tasks = set()
    while True:
        try:
            item = await queue.get()
            task = asyncio.create_task(handle(item))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        except Exception:
            log.exception("failed")


# The same loop with a way out: the set dies with the frame.
async def serve_until(queue, handle):
    tasks = set()
    while True:
        try:
            item = await queue.get()
            if item is None:
                return
            task = asyncio.create_task(handle(item))  # error: TRF002:20
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        except Exception:
            log.exception("failed")


# A drain loop: a strong snapshot of every other task each pass.
async def drain(timeout):
    current = asyncio.current_task()
    while True:
        tasks = [t for t in asyncio.all_tasks() if t is not current]
        if not tasks:
            return
        await asyncio.wait(tasks, timeout=timeout)


# A local made before the loop, left only once it is done: nothing pending is
# dropped by the wait of each pass.
async def ticker(interval, tick, event):
    stopped = asyncio.ensure_future(event.wait())
    while True:
        sleeper = asyncio.ensure_future(asyncio.sleep(interval))
        await asyncio.wait({stopped, sleeper}, return_when=asyncio.FIRST_COMPLETED)
        if not sleeper.done():
            sleeper.cancel()
        if stopped.done():
            return
        tick()


async def ticker_polled(interval, tick, event):
    stopped = asyncio.create_task(event.wait())
    while not stopped.done():
        sleeper = asyncio.create_task(asyncio.sleep(interval))
        await asyncio.wait([stopped, sleeper], return_when=asyncio.FIRST_COMPLETED)
        if not sleeper.done():
            sleeper.cancel()
        tick()


# Left while it may be pending: the wait's pending set held it last.
async def ticker_left_early(interval, tick, event):
    stopped = asyncio.ensure_future(event.wait())
    while True:
        sleeper = asyncio.ensure_future(asyncio.sleep(interval))
        await asyncio.wait({stopped, sleeper}, return_when=asyncio.FIRST_COMPLETED)  # error: TRF005:15
        if not sleeper.done():
            sleeper.cancel()
        if tick():
            return
