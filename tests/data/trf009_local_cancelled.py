"""A task held only by a local, cancelled and then dropped at once, while its
coroutine waits again in its cleanup: ``cancel()`` only asks, and once the
frame ends (a ``return``, a ``raise`` it does not catch, its end) or the local
is rebound or deleted, nothing holds the task while its ``finally`` waits
(mmrelay's stale BLE disconnect, a ``run_coroutine_threadsafe`` future
cancelled after ``result(timeout)`` timed out).  The twins await the task after
``cancel()`` (or before it, on the path: it is done by then), keep it elsewhere
(a walrus in a call too), return it, drop it in an ``async with`` (whose exit
runs first), cancel it only once done, or run a coroutine whose cleanup does not
wait (a fresh-eyes review found the second to sixth of these reported)."""
import asyncio
import concurrent.futures


async def watch(ws):
    try:
        while True:
            await ws.recv()
    finally:
        await ws.close()


async def quiet():
    try:
        while True:
            await asyncio.sleep(1)
    finally:
        print("done")


def stop_from_thread(loop, ws):
    future = asyncio.run_coroutine_threadsafe(watch(ws), loop)
    try:
        future.result(timeout=5)
    except concurrent.futures.TimeoutError:
        if not future.done():
            future.cancel()
    return  # error: TRF009:5


async def run_for_a_while(ws):
    task = asyncio.create_task(watch(ws))
    await asyncio.sleep(10)
    task.cancel()  # error: TRF009:5


async def run_then_forget(ws):
    task = asyncio.create_task(watch(ws))
    await asyncio.sleep(10)
    task.cancel()
    task = None  # error: TRF009:5
    await asyncio.sleep(1)


async def run_then_delete(ws):
    task = asyncio.ensure_future(watch(ws))
    await asyncio.sleep(10)
    task.cancel()
    del task  # error: TRF009:5
    await asyncio.sleep(1)


async def give_up(ws, bad):
    task = asyncio.get_running_loop().create_task(watch(ws))
    await asyncio.sleep(10)
    if bad:
        task.cancel()
        raise RuntimeError("bad")  # error: TRF009:9
    await task


async def nested(ws):
    async def pump():
        try:
            await ws.recv()
        except asyncio.CancelledError:
            await ws.close()
            raise

    task = asyncio.create_task(pump())
    await asyncio.sleep(1)
    task.cancel()
    return None  # error: TRF009:5


# --- the twins: silent


async def awaited_after_cancel(ws):
    task = asyncio.create_task(watch(ws))
    await asyncio.sleep(10)
    task.cancel()
    try:
        await task
    except asyncio.CancelledError:
        pass


async def cleanup_does_not_wait():
    task = asyncio.create_task(quiet())
    await asyncio.sleep(10)
    task.cancel()


async def kept_elsewhere(ws, keep):
    task = asyncio.create_task(watch(ws))
    keep.add(task)
    await asyncio.sleep(10)
    task.cancel()


async def returned(ws):
    task = asyncio.create_task(watch(ws))
    await asyncio.sleep(10)
    task.cancel()
    return task


async def raise_caught(ws, bad):
    task = asyncio.create_task(watch(ws))
    try:
        await asyncio.sleep(10)
        if bad:
            task.cancel()
            raise RuntimeError("bad")
    except RuntimeError:
        await task
    await task


async def return_through_finally(ws):
    task = asyncio.create_task(watch(ws))
    try:
        await asyncio.sleep(10)
        task.cancel()
        return None
    finally:
        await asyncio.gather(task, return_exceptions=True)


async def cancel_in_a_loop(ws, items):
    task = asyncio.create_task(watch(ws))
    for item in items:
        await item
        task.cancel()
    await asyncio.gather(task, return_exceptions=True)


async def captured(ws):
    task = asyncio.create_task(watch(ws))

    def stop():
        return task

    task.cancel()
    return stop


async def unknown_coroutine(ws, make):
    task = asyncio.create_task(make(ws))
    await asyncio.sleep(10)
    task.cancel()


async def awaited_before(ws):
    task = asyncio.create_task(watch(ws))
    try:
        await task
    finally:
        task.cancel()


async def timed(ws):
    task = asyncio.create_task(watch(ws))
    try:
        return await asyncio.wait_for(task, 5)
    except asyncio.TimeoutError:
        task.cancel()
        raise


async def walrus_kept(ws, keep):
    keep.append(task := asyncio.create_task(watch(ws)))
    await asyncio.sleep(1)
    task.cancel()


async def annotated_after(ws):
    task = asyncio.create_task(watch(ws))
    await asyncio.sleep(1)
    task.cancel()
    task: asyncio.Task
    try:
        await task
    except asyncio.CancelledError:
        pass


async def only_when_done(ws):
    task = asyncio.create_task(watch(ws))
    await asyncio.sleep(1)
    if task.done():
        task.cancel()
        return
    await task


async def inside_async_with(ws, session):
    task = asyncio.create_task(watch(ws))
    async with session:
        await asyncio.sleep(1)
        task.cancel()
        return
