"""A local's task cancelled, then statements a path may run by without waiting
(a log call, a store, an ``if`` with no ``else``: on the path where its test is
false), then the frame ends or the local is dropped, while the coroutine waits
again in its cleanup (repid's runner: ``process_task.cancel()``, then ``if not
message.is_acted_on: await message.reject()``, then ``return``).  The task may
also have gone into a temporary first (``asyncio.wait({stop, task})``).  The
twins touch the task on the way (``if slow: await task``), wait on every path
before the drop (an ``await`` or an ``if await ...:`` test), or keep the result
of the wait that holds it (``return pending``)."""
import asyncio
import logging

log = logging.getLogger(__name__)


async def watch(ws):
    try:
        while True:
            await ws.recv()
    finally:
        await ws.close()


async def reject_unless_acted_on(ws, stop: asyncio.Event, stopping: asyncio.Task, message):
    task = asyncio.create_task(watch(ws))
    await asyncio.wait({stopping, task}, return_when=asyncio.FIRST_COMPLETED)
    if stop.is_set():
        task.cancel()
        if not message.acted_on:
            await message.reject()
        return  # error: TRF009:9
    await task


async def logged_then_returned(ws):
    task = asyncio.create_task(watch(ws))
    await asyncio.sleep(10)
    task.cancel()
    log.info("watcher stopped")
    state = "stopped"
    return state  # error: TRF009:5


async def logged_at_the_end(ws):
    task = asyncio.create_task(watch(ws))
    await asyncio.sleep(10)
    task.cancel()  # error: TRF009:5
    log.info("watcher stopped")


async def logged_then_forgotten(ws):
    task = asyncio.create_task(watch(ws))
    await asyncio.sleep(10)
    task.cancel()
    log.info("watcher stopped")
    task = None  # error: TRF009:5
    await asyncio.sleep(1)


async def in_a_branch_then_logged(ws, closing):
    task = asyncio.create_task(watch(ws))
    await asyncio.sleep(10)
    if closing:
        task.cancel()
        log.info("closing")
    raise RuntimeError("closed")  # error: TRF009:5


# ------------------------------------------------------------------ the twins
async def awaited_when_slow(ws, slow):
    task = asyncio.create_task(watch(ws))
    await asyncio.sleep(10)
    task.cancel()
    if slow:
        await task
    return


async def waits_on_every_path(ws, message):
    task = asyncio.create_task(watch(ws))
    await asyncio.sleep(10)
    task.cancel()
    await message.reject()
    return


async def waits_in_the_test(ws, message):
    task = asyncio.create_task(watch(ws))
    await asyncio.sleep(10)
    task.cancel()
    if await message.reject():
        log.info("rejected")
    return


async def waits_in_the_log_call(ws, message):
    task = asyncio.create_task(watch(ws))
    await asyncio.sleep(10)
    task.cancel()
    log.info("rejected %s", await message.reject())
    return


async def pending_returned(ws, stopping: asyncio.Task):  # (a named result of the wait: not followed)
    task = asyncio.create_task(watch(ws))
    done, pending = await asyncio.wait({stopping, task}, return_when=asyncio.FIRST_COMPLETED)
    task.cancel()
    return pending


async def kept_on_the_way(ws, keep: set):
    task = asyncio.create_task(watch(ws))
    await asyncio.sleep(10)
    task.cancel()
    keep.add(task)
    return


async def else_branch_waits(ws, message, fast):
    task = asyncio.create_task(watch(ws))
    await asyncio.sleep(10)
    task.cancel()
    if fast:
        log.info("fast")
    else:
        await task
    return


async def else_branch_waits_elsewhere(ws, message, fast):
    task = asyncio.create_task(watch(ws))
    await asyncio.sleep(10)
    task.cancel()
    if fast:
        log.info("fast")
    else:
        await message.reject()
    return


async def waits_deep_in_the_test(ws, message):
    task = asyncio.create_task(watch(ws))
    await asyncio.sleep(10)
    task.cancel()
    if not (await message.reject()).ok:
        log.info("rejected")
    return


async def waits_in_an_f_string(ws, response):
    task = asyncio.create_task(watch(ws))
    await asyncio.sleep(10)
    task.cancel()
    log.info(f"{await response.text()}")
    return


class Leftovers:
    """A named collection the task went into (here read by a comprehension that
    keeps it) is a holder the rule does not follow: silent."""

    async def pending_kept_by_a_comprehension(self, ws, stopping: asyncio.Task):
        task = asyncio.create_task(watch(ws))
        done, pending = await asyncio.wait({stopping, task}, return_when=asyncio.FIRST_COMPLETED)
        self.leftover = [t for t in pending]
        task.cancel()
        return

    async def listed_then_kept_by_a_comprehension(self, ws, stopping: asyncio.Task):
        task = asyncio.create_task(watch(ws))
        waiting = [stopping, task]
        self.all = {t for t in waiting}
        task.cancel()
        return


async def awaited_in_the_drop_after_a_log(ws):
    task = asyncio.create_task(watch(ws))
    await asyncio.sleep(10)
    task.cancel()
    log.info("stopping")
    return await task


async def awaited_in_the_drop(ws):
    task = asyncio.create_task(watch(ws))
    await asyncio.sleep(10)
    task.cancel()
    return await task


async def waits_in_an_async_comprehension(ws, queue):
    task = asyncio.create_task(watch(ws))
    await asyncio.sleep(10)
    task.cancel()
    rest = [m async for m in queue]
    return rest


async def waited_alone_first(ws):
    task = asyncio.create_task(watch(ws))
    await asyncio.wait({task}, return_when=asyncio.FIRST_COMPLETED)
    task.cancel()
    return


async def quiet(ws):
    try:
        while True:
            await ws.recv()
    finally:
        print("done")


async def two_cancelled_at_the_end(ws):
    reader = asyncio.create_task(watch(ws))
    writer = asyncio.create_task(watch(ws))
    await asyncio.sleep(10)
    reader.cancel()  # error: TRF009:5
    writer.cancel()  # error: TRF009:5


async def the_first_of_two_cancelled_then_returned(ws):
    reader = asyncio.create_task(watch(ws))
    writer = asyncio.create_task(quiet(ws))
    await asyncio.sleep(10)
    reader.cancel()
    writer.cancel()
    log.info("stopped")
    return  # error: TRF009:5


async def the_first_awaited_after_the_second(ws):
    reader = asyncio.create_task(watch(ws))
    writer = asyncio.create_task(quiet(ws))
    await asyncio.sleep(10)
    reader.cancel()
    writer.cancel()
    return await reader


# --------------------- touched on another branch than the cancel's: still reported
async def another_task_cancelled_on_the_first_branch(ws, stopper: asyncio.Task, timed_out):
    task = asyncio.create_task(watch(ws))
    await asyncio.sleep(10)
    if timed_out:
        stopper.cancel()
        log.warning("timed out")
    else:
        task.cancel()
    return  # error: TRF009:5


async def awaited_when_no_timeout(ws, stop, timeout):
    task = asyncio.create_task(watch(ws))
    try:
        await asyncio.wait_for(stop.wait(), timeout)
    except asyncio.TimeoutError:
        task.cancel()
    else:
        await task
    return  # error: TRF009:5


async def looked_at_on_the_other_branch(ws, stop):
    task = asyncio.create_task(watch(ws))
    await asyncio.sleep(10)
    if stop.is_set():
        task.cancel()
    else:
        print(task.done())
    return  # error: TRF009:5


async def cancelled_in_a_row_in_finally(ws):
    reader = asyncio.create_task(watch(ws))
    writer = asyncio.create_task(watch(ws))
    try:
        await asyncio.sleep(1)
    finally:
        reader.cancel()  # error: TRF009:9
        writer.cancel()  # error: TRF009:9


async def waits_in_the_drop(ws):
    task = asyncio.create_task(watch(ws))
    await asyncio.sleep(10)
    task.cancel()
    return await ws.flush()


# --------------------- cancels apart, and one task cancelled twice (after a review of issue 32)
async def cancels_apart(ws):
    reader = asyncio.create_task(watch(ws))
    writer = asyncio.create_task(watch(ws))
    await asyncio.sleep(10)
    reader.cancel()  # error: TRF009:5
    log.info("reader stopped")
    writer.cancel()  # error: TRF009:5


async def cancels_apart_the_first_touched(ws, pending: list):
    reader = asyncio.create_task(watch(ws))
    writer = asyncio.create_task(watch(ws))
    await asyncio.sleep(10)
    reader.cancel()
    pending.append(reader)
    writer.cancel()  # error: TRF009:5


async def cancelled_twice(ws):
    task = asyncio.create_task(watch(ws))
    await asyncio.sleep(10)
    task.cancel()
    task.cancel()  # error: TRF009:5


async def cancelled_twice_awaited_between(ws):
    task = asyncio.create_task(watch(ws))
    await asyncio.sleep(10)
    task.cancel()
    await task
    task.cancel()


async def cancelled_on_a_branch_then_again(ws, first):
    task = asyncio.create_task(watch(ws))
    await asyncio.sleep(10)
    if first:
        task.cancel()
        log.info("cancelled early")
    task.cancel()  # error: TRF009:5


async def cancelled_and_awaited_on_a_branch_then_again(ws, first):
    task = asyncio.create_task(watch(ws))
    await asyncio.sleep(10)
    if first:
        task.cancel()
        await task
    task.cancel()  # (awaited on some path: done by then there)
