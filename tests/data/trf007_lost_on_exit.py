import asyncio
import logging

log = logging.getLogger(__name__)


class CheckError(Exception):
    pass


# 1. Raise after spawning: the tasks made so far (in earlier passes too) run on, unheld.
async def fetch_all(urls, fetch):
    tasks = []
    for url in urls:
        if not url:
            raise CheckError(url)
        tasks.append(asyncio.create_task(fetch(url)))  # error: TRF007:22
    return await asyncio.gather(*tasks)


async def fetch_all_checked(urls, fetch):
    tasks = []
    for url in urls:
        tasks.append(asyncio.create_task(fetch(url)))  # error: TRF007:22
        if not url:
            raise CheckError(url)
    return await asyncio.gather(*tasks)


async def fetch_all_checked_twin(urls, fetch):
    tasks = []
    for url in urls:
        tasks.append(asyncio.create_task(fetch(url)))
        if not url:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            raise CheckError(url)
    return await asyncio.gather(*tasks)


async def fetch_all_finally_twin(urls, fetch):
    tasks = []
    try:
        for url in urls:
            tasks.append(asyncio.create_task(fetch(url)))
            if not url:
                raise CheckError(url)
    finally:
        await asyncio.gather(*tasks, return_exceptions=True)


# 2. Break out of a completion loop: the rest are pending.
async def first_error(jobs):
    tasks = [asyncio.create_task(job()) for job in jobs]  # error: TRF007:14
    results = []
    for fut in asyncio.as_completed(tasks):
        try:
            results.append(await fut)
        except Exception:
            break
    return results


async def first_error_twin(jobs):
    tasks = [asyncio.create_task(job()) for job in jobs]
    results = []
    for fut in asyncio.as_completed(tasks):
        try:
            results.append(await fut)
        except Exception:
            break
    for task in tasks:
        task.cancel()
    return results


# 3. A caught timeout, then a return: the tasks of earlier passes run on.

async def consume(queue, handle, stopping):
    running = set()
    while True:
        try:
            item = await asyncio.wait_for(queue.get(), 1)
        except asyncio.TimeoutError:
            if stopping.is_set():
                return
            continue
        task = asyncio.create_task(handle(item))  # error: TRF007:16
        running.add(task)
        task.add_done_callback(running.discard)
    await asyncio.gather(*running)


async def consume_twin(queue, handle, stopping):
    running = set()
    while True:
        try:
            item = await asyncio.wait_for(queue.get(), 1)
        except asyncio.TimeoutError:
            if stopping.is_set():
                break
            continue
        task = asyncio.create_task(handle(item))
        running.add(task)
        task.add_done_callback(running.discard)
    await asyncio.gather(*running)


# 5. Kept or awaited on one branch only.
class Cache:
    def __init__(self):
        self._pending = set()
        self._values = {}

    async def get(self, key, load):
        task = asyncio.create_task(load(key))  # error: TRF007:16
        if key in self._values:
            return self._values[key]
        return await task

    async def get_twin(self, key, load):
        if key in self._values:
            return self._values[key]
        task = asyncio.create_task(load(key))
        return await task

    async def start(self, job, keep):
        task = asyncio.create_task(job())  # error: TRF007:16
        if keep:
            self._pending.add(task)
            task.add_done_callback(self._pending.discard)
        else:
            return None
        return task

    async def start_twin(self, job, keep):
        task = asyncio.create_task(job())
        if keep:
            self._pending.add(task)
            task.add_done_callback(self._pending.discard)
        else:
            await task
            return None
        return task


# 6. A cancellation branch that leaves a task running and re-raises.
async def serve(event, work):
    worker = asyncio.create_task(work())  # error: TRF007:14
    try:
        await event.wait()
    except asyncio.CancelledError:
        log.info("cancelled; the worker goes on")
        raise
    await worker


async def serve_twin(event, work):
    worker = asyncio.create_task(work())
    try:
        await event.wait()
    except asyncio.CancelledError:
        worker.cancel()
        raise
    await worker


# Where the path cannot be told, nothing is reported.
async def handed_on(event, work, keeper):
    worker = asyncio.create_task(work())
    keeper(worker)
    if event.is_set():
        return None
    await worker


async def caught(urls, fetch):
    tasks = []
    for url in urls:
        tasks.append(asyncio.create_task(fetch(url)))
        try:
            if not url:
                raise CheckError(url)
        except CheckError:
            pass
    return await asyncio.gather(*tasks)


async def nested_break(groups, fetch):
    tasks = []
    for group in groups:
        for url in group:
            tasks.append(asyncio.create_task(fetch(url)))
            if not url:
                break
    return await asyncio.gather(*tasks)


async def break_then_gather(urls, fetch):
    tasks = []
    for url in urls:
        if not url:
            break
        tasks.append(asyncio.create_task(fetch(url)))
        if url == "last":
            break
    return await asyncio.gather(*tasks)


async def startup(lifespan, loop):
    lifespan_task = loop.create_task(lifespan.handle())
    await lifespan.wait_for_startup()
    if lifespan_task.done():
        exception = lifespan_task.exception()
        if exception is not None:
            raise exception
    await lifespan_task


async def guarded(job, flag):
    if flag:
        task = asyncio.create_task(job())
    else:
        task = None
    if not task:
        return
    await task


# 7. A run_coroutine_threadsafe future dropped when .result(timeout) raises.
def call(coro, loop):
    fut = asyncio.run_coroutine_threadsafe(coro, loop)  # error: TRF007:11
    try:
        return fut.result(5)
    except asyncio.TimeoutError:
        raise CheckError("slow")


def call_twin(coro, loop):
    fut = asyncio.run_coroutine_threadsafe(coro, loop)
    try:
        return fut.result(5)
    except asyncio.TimeoutError:
        fut.cancel()
        raise CheckError("slow")


def call_untimed(coro, loop):
    fut = asyncio.run_coroutine_threadsafe(coro, loop)
    try:
        return fut.result()
    except asyncio.TimeoutError:
        raise CheckError("slow")


def call_other_error(coro, loop):
    fut = asyncio.run_coroutine_threadsafe(coro, loop)
    try:
        return fut.result(timeout=5)  # error: TRF003:16
    except ValueError:
        raise CheckError("bad")


# continue and break out of the loop that makes the task in each pass
async def each_skipping(ns, job):
    for n in ns:
        task = asyncio.create_task(job(n))  # error: TRF007:16
        if n < 0:
            continue
        await task


async def each_stopping(ns, job):
    for n in ns:
        task = asyncio.create_task(job(n))  # error: TRF007:16
        if n < 0:
            break
        await task


async def each_skipping_after_cancel(ns, job):
    for n in ns:
        task = asyncio.create_task(job(n))
        if n < 0:
            task.cancel()
            continue
        await task


async def each_kept_past_the_break(ns, job):
    task = None
    for n in ns:
        task = asyncio.create_task(job(n))
        if n < 0:
            break
        await task
    if task is not None:
        await task


async def each_awaited_at_the_top(ns, job):
    task = None
    for n in ns:
        if task is not None:
            await task
        task = asyncio.create_task(job(n))
        if n < 0:
            continue
        await task
        task = None


async def each_collected(ns, job):
    tasks = []
    for n in ns:
        tasks.append(asyncio.create_task(job(n)))
        if n < 0:
            continue
    await asyncio.gather(*tasks)


async def each_made_on_a_branch(ns, job):
    for n in ns:
        if n:
            task = asyncio.create_task(job(n))
        if n < 0:
            continue
        await task


# ... and out of an inner loop
async def groups_stopping(groups, job):
    for group in groups:
        for n in group:
            task = asyncio.create_task(job(n))  # error: TRF007:20
            if n < 0:
                break
            await task


async def groups_skipping(groups, job):
    for group in groups:
        for n in group:
            task = asyncio.create_task(job(n))  # error: TRF007:20
            if n < 0:
                continue
            await task


async def groups_kept_past_the_break(groups, job):
    for group in groups:
        task = None
        for n in group:
            task = asyncio.create_task(job(n))
            if n < 0:
                break
            await task
        if task is not None:
            await task


async def groups_awaited_in_the_next_pass(groups, job):
    task = None
    for group in groups:
        if task is not None:
            await task
        for n in group:
            task = asyncio.create_task(job(n))
            if n < 0:
                break
            await task
            task = None


async def groups_carried(groups, job, stopping):
    running = set()
    while True:
        for group in groups:
            if stopping.is_set():
                break
        task = asyncio.create_task(job(groups))
        running.add(task)
        task.add_done_callback(running.discard)


# 4, its for-else form: after the cancel attempts, the tasks still pending are abandoned.
async def run_workers(jobs, stopping):
    tasks = [asyncio.create_task(job()) for job in jobs]  # error: TRF007:14
    await stopping.wait()
    pending = set(tasks)
    for _ in range(3):
        for task in pending:
            task.cancel()
        _done, pending = await asyncio.wait(pending, timeout=5)
        if not pending:
            break
    else:
        log.error("abandoning tasks: %s", pending)
        return
    await asyncio.gather(*tasks, return_exceptions=True)


async def run_workers_raising(jobs, stopping):
    tasks = [asyncio.create_task(job()) for job in jobs]  # error: TRF007:14
    await stopping.wait()
    pending = set(tasks)
    for attempt in range(3):
        for task in pending:
            if attempt:
                log.debug("cancelling %s again", task.get_name())
            task.cancel()
        _done, pending = await asyncio.wait(pending, timeout=5)
        if not pending:
            break
    else:
        raise CheckError(f"{len(pending)} tasks did not stop")
    await asyncio.gather(*tasks, return_exceptions=True)


async def run_workers_twin(jobs, stopping):
    tasks = [asyncio.create_task(job()) for job in jobs]
    await stopping.wait()
    pending = set(tasks)
    for _ in range(3):
        for task in pending:
            task.cancel()
        _done, pending = await asyncio.wait(pending, timeout=5)
        if not pending:
            break
    else:
        log.error("waiting on for tasks: %s", pending)
        await asyncio.gather(*pending, return_exceptions=True)
        return
    await asyncio.gather(*tasks, return_exceptions=True)


async def run_workers_cancelled(jobs, stopping):
    tasks = [asyncio.create_task(job()) for job in jobs]
    await stopping.wait()
    for task in tasks:
        task.cancel()
    return


async def run_workers_skipping(jobs, stopping, again):
    tasks = [asyncio.create_task(job()) for job in jobs]
    await stopping.wait()
    pending = set(tasks)
    for _ in range(3):
        if again():
            continue
        for task in pending:
            task.cancel()
        _done, pending = await asyncio.wait(pending, timeout=5)
        if not pending:
            break
    else:
        return
    await asyncio.gather(*tasks, return_exceptions=True)


async def run_workers_checked_elsewhere(jobs, stopping):
    tasks = [asyncio.create_task(job()) for job in jobs]
    await stopping.wait()
    pending = set(tasks)
    for _ in range(3):
        for task in pending:
            task.cancel()
        _done, pending = await asyncio.wait(pending, timeout=5)
        log.info("%d left", len(pending))
        if not pending:
            break
    else:
        return
    await asyncio.gather(*tasks, return_exceptions=True)


def start_all(coros, now):
    # the tasks are made in the return that hands them on: the later return
    # is on another path (a false alarm of a helper like this one)
    if now:
        return [asyncio.create_task(coro) for coro in coros]
    return None


async def start_all_then_check(coros, now):
    tasks = [asyncio.create_task(coro) for coro in coros]  # error: TRF007:14
    if not now:
        return None
    return tasks


async def bail_on_error(errors, co):
    # after a FIRST_COMPLETED wait of two, the other one is done: its result is
    # taken before the raise (a false alarm of the fifteenth trial)
    fn_task = asyncio.ensure_future(co)
    monitor_task = asyncio.ensure_future(errors.get())
    done, _pending = await asyncio.wait({fn_task, monitor_task}, return_when=asyncio.FIRST_COMPLETED)
    if fn_task in done:
        monitor_task.cancel()
        await asyncio.gather(monitor_task, return_exceptions=True)
        return fn_task.result()
    fn_task.cancel()
    await asyncio.gather(fn_task, return_exceptions=True)
    error = monitor_task.result()
    raise error


async def bail_on_the_wrong_result(errors, co):
    fn_task = asyncio.ensure_future(co)
    monitor_task = asyncio.ensure_future(errors.get())  # error: TRF007:20
    await asyncio.wait({fn_task, monitor_task}, timeout=5)
    error = fn_task.exception()  # (the other task's: monitor_task may be pending)
    if error is not None:
        raise RuntimeError(error)
    monitor_task.cancel()
    await asyncio.gather(monitor_task, return_exceptions=True)


async def race_against_deadline(work, deadline):
    # which way the test of a returning branch went may say the task is done:
    # what the branch does still counts after it (a review's find)
    task = asyncio.ensure_future(work())
    done, pending = await asyncio.wait({task}, timeout=deadline)
    if task in pending:
        task.cancel()
        return False
    return True
