"""TRF007 at a ``break`` whose loop sits in a ``try``: what a handler of that
``try`` does to the task (``except CancelledError: task.cancel()``) is on no
path from the ``break``, which goes on after the loop and ends the frame.  And
the locals an ``asyncio.wait()`` in the loop binds after the spawns, in each
pass (``done, pending = await asyncio.wait(...)``), carry no task of an earlier
pass to the ``break`` (aiosmpplib's connection keeper).  The twins handle the
task after the loop, or in a ``finally``, or in a handler that the code after
the loop, in the ``try``, may raise into (a fresh-eyes review's)."""
import asyncio


async def keeper(self):
    task = None
    try:
        while True:
            task = asyncio.create_task(self.poll())  # error: TRF007:20
            await asyncio.sleep(1)
            if self.stopping:
                break
            await task
    except asyncio.CancelledError:
        task.cancel()
        raise


async def connection_keeper(self):
    sleep_task = None
    event_task = None
    try:
        while True:
            sleep_task = asyncio.create_task(asyncio.sleep(self.interval))  # error: TRF007:26
            event_task = asyncio.create_task(self.received.wait())  # error: TRF007:26
            done, _pending = await asyncio.wait({sleep_task, event_task}, return_when=asyncio.FIRST_COMPLETED)
            await next(iter(done))
            if self.shutting_down:
                break
            if sleep_task in done:
                await asyncio.wait_for(event_task, self.timeout)
            else:
                sleep_task.cancel()
            self.received.clear()
    except TimeoutError:
        pass
    except asyncio.CancelledError:
        sleep_task.cancel()
        event_task.cancel()
        raise


# --- the twins: silent


async def handled_after_loop(self):
    task = None
    try:
        while True:
            task = asyncio.create_task(self.poll())
            await asyncio.sleep(1)
            if self.stopping:
                break
            await task
        task.cancel()
    except asyncio.CancelledError:
        task.cancel()
        raise


async def handled_in_finally(self):
    task = None
    try:
        while True:
            task = asyncio.create_task(self.poll())
            await asyncio.sleep(1)
            if self.stopping:
                break
            await task
    finally:
        if task is not None:
            task.cancel()


async def waited_after_loop(self):
    while True:
        sleep_task = asyncio.create_task(asyncio.sleep(self.interval))
        event_task = asyncio.create_task(self.received.wait())
        done, pending = await asyncio.wait({sleep_task, event_task}, return_when=asyncio.FIRST_COMPLETED)
        if self.shutting_down:
            break
        await asyncio.gather(*pending)
    for leftover in pending:
        leftover.cancel()


async def raised_after_loop(self):
    task = None
    try:
        while True:
            task = asyncio.create_task(self.poll())
            if not await self.check():
                break
            await task
        raise ConnectionError("lost")
    except ConnectionError:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
