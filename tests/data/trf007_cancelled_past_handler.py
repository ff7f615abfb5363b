"""A task finished by a ``try``'s handler of ``Exception`` (``except Exception:
task.cancel(); raise``), while a wait of the ``try`` body after the task is made
may be cancelled: ``CancelledError`` is no ``Exception`` (Python 3.8 and later),
passes the handler, and the frame ends with the task running (ophyd-async's
``set_and_wait_for_other_value``, a miss of the twentieth trial).  Each reported
case has a silent twin."""
import asyncio
import contextlib


async def watch(signal):
    await asyncio.sleep(1)


async def never_waits():
    return 1


async def set_and_wait(signal, ready):
    wait_task = asyncio.create_task(watch(signal))  # error: TRF007:17
    try:
        await ready.wait()
        await wait_task
    except Exception:
        wait_task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await wait_task
        raise


async def set_and_wait_base(signal, ready):
    wait_task = asyncio.create_task(watch(signal))
    try:
        await ready.wait()
        await wait_task
    except BaseException:
        wait_task.cancel()
        raise


async def set_and_wait_both(signal, ready):
    wait_task = asyncio.create_task(watch(signal))
    try:
        await ready.wait()
        await wait_task
    except (Exception, asyncio.CancelledError):
        wait_task.cancel()
        raise


async def set_and_wait_finally(signal, ready):
    wait_task = asyncio.create_task(watch(signal))
    try:
        await ready.wait()
        await wait_task
    finally:
        wait_task.cancel()


async def set_and_wait_cancel_handler(signal, ready):
    wait_task = asyncio.create_task(watch(signal))
    try:
        await ready.wait()
        await wait_task
    except asyncio.CancelledError:
        wait_task.cancel()
        raise
    except Exception:
        wait_task.cancel()
        raise


# Made in the ``try`` body, and gathered with the task of another object.
async def set_in_body(signal, ready, status):
    try:
        wait_task = asyncio.create_task(watch(signal))  # error: TRF007:21
        await ready.wait()
        await asyncio.gather(wait_task, status.task)
        return status
    except Exception:
        wait_task.cancel()
        raise


async def set_in_body_awaited_first(signal, ready, status):
    try:
        wait_task = asyncio.create_task(watch(signal))
        await wait_task
        await ready.wait()
    except Exception:
        wait_task.cancel()
        raise


async def set_in_body_quiet_wait(signal):
    try:
        wait_task = asyncio.create_task(watch(signal))
        await never_waits()
        await wait_task
    except Exception:
        wait_task.cancel()
        raise


# The first wait awaits a coroutine that never waits (it returns a value, which
# its caller has): no cancellation can come from there.
class Device:
    def __init__(self):
        self._cache = {}

    async def lookup(self, key):
        return self._cache.get(key)

    async def read(self, key):
        task = asyncio.create_task(watch(key))
        try:
            value = await self.lookup(key)
            print(value)
            return await task
        except Exception:
            task.cancel()
            raise


# A ``try`` around it whose ``finally`` finishes the task.
async def set_guarded(signal, ready):
    wait_task = asyncio.create_task(watch(signal))
    try:
        try:
            await ready.wait()
            await wait_task
        except Exception:
            wait_task.cancel()
            raise
    finally:
        wait_task.cancel()


# Made before a serving loop whose ``try`` finishes it on an error; a loop that
# nothing leaves holds it as long as the frame lives (silent, as TRF002 is).
async def serve(queue, errors):
    failed = asyncio.create_task(watch(errors))  # error: TRF007:14
    while True:
        try:
            item = await queue.get()
            if item is None:
                break
            print(item)
        except Exception:
            failed.cancel()
            raise
    await failed


async def serve_forever(queue, errors):
    failed = asyncio.create_task(watch(errors))
    while True:
        try:
            item = await queue.get()
            print(item)
        except Exception:
            failed.cancel()
            raise


# A task that waits for an event: whoever cancels the function sets it first.
async def serve_until_stopped(queue, stopped):
    stopper = asyncio.create_task(stopped.wait())
    while True:
        try:
            item = await queue.get()
            if item is None:
                break
            print(item)
        except Exception:
            stopper.cancel()
            raise
    await stopper
