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


# A drain loop: it leaves only when no other task of the loop is pending (a
# snapshot of all_tasks() taken in each pass before the test), so every task
# it made is done by then.
async def drain(coros):
    spawned = set()
    for coro in coros:
        scheduled = asyncio.create_task(coro)
        spawned.add(scheduled)
        scheduled.add_done_callback(spawned.discard)
    current = asyncio.current_task()
    while True:
        pending = {t for t in asyncio.all_tasks() if t is not current}
        if not pending:
            return
        await asyncio.wait(pending, return_when=asyncio.FIRST_EXCEPTION)


async def drain_by_difference(coros):
    spawned = [asyncio.create_task(coro) for coro in coros]
    while True:
        others = asyncio.all_tasks() - {asyncio.current_task()}
        if others:
            await asyncio.wait(others)
        else:
            break
    log.info("drained %d", len(spawned))


# The twins: another way out, a snapshot taken after the test, a snapshot of
# something else.
async def drain_or_give_up(coros, give_up):
    spawned = set()
    for coro in coros:
        scheduled = asyncio.create_task(coro)  # error: TRF002:21
        spawned.add(scheduled)
        scheduled.add_done_callback(spawned.discard)
    current = asyncio.current_task()
    while True:
        pending = {t for t in asyncio.all_tasks() if t is not current}
        if not pending or give_up():
            return
        await asyncio.wait(pending, return_when=asyncio.FIRST_EXCEPTION)


async def drain_stale(coros):
    spawned = set()
    for coro in coros:
        scheduled = asyncio.create_task(coro)  # error: TRF002:21
        spawned.add(scheduled)
        scheduled.add_done_callback(spawned.discard)
    pending = set()
    while True:
        if not pending:
            return
        pending = asyncio.all_tasks() - {asyncio.current_task()}
        await asyncio.wait(pending)


async def drain_other(coros, queue):
    spawned = set()
    for coro in coros:
        scheduled = asyncio.create_task(coro)  # error: TRF002:21
        spawned.add(scheduled)
        scheduled.add_done_callback(spawned.discard)
    while True:
        pending = {item for item in queue.items() if item}
        if not pending:
            return
        await asyncio.sleep(1)


async def drain_but_mine(coros, mine):
    spawned = set()
    for coro in coros:
        scheduled = asyncio.create_task(coro)  # error: TRF002:21
        spawned.add(scheduled)
        scheduled.add_done_callback(spawned.discard)
    while True:
        pending = {t for t in asyncio.all_tasks() if t is not mine}
        if not pending:
            return
        await asyncio.wait(pending)


async def drain_but_one(coros, mine):
    spawned = set()
    for coro in coros:
        scheduled = asyncio.create_task(coro)  # error: TRF002:21
        spawned.add(scheduled)
        scheduled.add_done_callback(spawned.discard)
    while True:
        pending = asyncio.all_tasks() - {mine}
        if not pending:
            return
        await asyncio.wait(pending)


async def drain_spawning_in_the_loop(queue, handle):
    tasks = set()
    current = asyncio.current_task()
    while True:
        pending = {t for t in asyncio.all_tasks() if t is not current}
        if not queue.empty():
            job = asyncio.create_task(handle(queue.get_nowait()))  # error: TRF002:19
            tasks.add(job)
            job.add_done_callback(tasks.discard)
        if not pending:
            return
        await asyncio.wait(pending)


async def drain_emptied(coros, stop):
    spawned = set()
    for coro in coros:
        scheduled = asyncio.create_task(coro)  # error: TRF002:21
        spawned.add(scheduled)
        scheduled.add_done_callback(spawned.discard)
    current = asyncio.current_task()
    while True:
        pending = asyncio.all_tasks() - {current}
        if stop():
            pending.clear()
        if not pending:
            return
        await asyncio.wait(pending)


async def drain_of_another_loop(coros, other_loop):
    futures = set()
    for coro in coros:
        future = asyncio.run_coroutine_threadsafe(coro, other_loop)  # error: TRF002:18
        futures.add(future)
    current = asyncio.current_task()
    while True:
        pending = asyncio.all_tasks() - {current}
        if not pending:
            return
        await asyncio.wait(pending)


async def drain_on_another_loop(coros, other_loop):
    spawned = set()
    for coro in coros:
        scheduled = asyncio.create_task(coro)  # error: TRF002:21
        spawned.add(scheduled)
        scheduled.add_done_callback(spawned.discard)
    while True:
        pending = asyncio.all_tasks(other_loop) - {asyncio.current_task()}
        if not pending:
            return
        await asyncio.wait(pending)


# An await that never returns but by a cancellation keeps the frame, and its locals,
# as a ``while True:`` loop does (a new user's report: ``await server.serve_forever()``).
async def heartbeat():
    while True:
        await asyncio.sleep(1)


async def serve(handler):
    beat = asyncio.create_task(heartbeat())
    server = await asyncio.start_server(handler, "127.0.0.1", 8080)
    async with server:
        await server.serve_forever()


async def park():
    beat = asyncio.create_task(heartbeat())
    await asyncio.Event().wait()


async def park_on_a_future():
    beat = asyncio.create_task(heartbeat())
    await asyncio.get_running_loop().create_future()


async def until_stopped(stop: asyncio.Event):
    beat = asyncio.create_task(heartbeat())  # error: TRF002:12
    await stop.wait()  # (returns once set: the frame ends with the task running)


async def serve_in_a_try(handler, server):
    beat = asyncio.create_task(heartbeat())  # error: TRF002:12
    try:
        await server.serve_forever()  # (in a ``try``: not followed)
    except OSError:
        log.exception("server failed")


async def rebound_before_parking():
    beat = asyncio.create_task(heartbeat())  # error: TRF002:12
    beat = asyncio.create_task(heartbeat())  # error: TRF002:12
    await asyncio.Event().wait()


async def stream_then_park():
    beat = asyncio.create_task(heartbeat())  # error: TRF002:12
    yield 1  # (a generator: its consumer may stop here)
    await asyncio.Event().wait()


class Service:
    async def serve_forever(self):
        await asyncio.sleep(1)  # (the project's own: it returns)

    async def run(self):
        beat = asyncio.create_task(heartbeat())  # error: TRF002:16
        await self.serve_forever()
