# flake8-args: --extend-select=TRF008
"""TRF008 gather-orphans-tasks (off by default): an awaited gather without
return_exceptions raises at the first failure, and the other tasks the function
made run on, held only by its locals.  Each finding has a twin that finishes or
keeps the tasks on every path (a crawler's skipped-request callbacks and an
error snapshotter, eighth trial of issue 32)."""
import asyncio


async def save_all(kvs, items):
    tasks = list[asyncio.Task]()
    for key, value in items:
        tasks.append(asyncio.create_task(kvs.set_value(key, value)))
    await asyncio.gather(*tasks)  # error: TRF008:11


async def save_all_twin(kvs, items):
    tasks = list[asyncio.Task]()
    for key, value in items:
        tasks.append(asyncio.create_task(kvs.set_value(key, value)))
    try:
        await asyncio.gather(*tasks)
    finally:
        for task in tasks:
            task.cancel()


async def fetch_all(fetch, urls):
    tasks = [asyncio.create_task(fetch(url)) for url in urls]
    return await asyncio.gather(*tasks)  # error: TRF008:18


async def fetch_all_twin(fetch, urls):
    tasks = [asyncio.create_task(fetch(url)) for url in urls]
    return await asyncio.gather(*tasks, return_exceptions=True)


async def both(read, write):
    reader = asyncio.create_task(read())
    writer = asyncio.create_task(write())
    first, second = await asyncio.gather(reader, writer)  # error: TRF008:27
    return first, second


async def both_twin(read, write):
    reader = asyncio.create_task(read())
    writer = asyncio.create_task(write())
    try:
        first, second = await asyncio.gather(reader, writer)
    except Exception:
        reader.cancel()
        writer.cancel()
        raise
    return first, second


async def skipped(callbacks, request):
    skipped_tasks = [asyncio.create_task(callback(request)) for callback in callbacks]
    try:
        await asyncio.gather(*skipped_tasks)  # error: TRF008:15
    except ValueError:
        return None  # the others still run, and the frame ends
    return True


async def skipped_twin(callbacks, request):
    skipped_tasks = [asyncio.create_task(callback(request)) for callback in callbacks]
    try:
        await asyncio.gather(*skipped_tasks)
    except ValueError:
        await asyncio.gather(*skipped_tasks, return_exceptions=True)
        return None
    return True


async def in_a_timeout(fetch, urls):
    tasks = [asyncio.create_task(fetch(url)) for url in urls]
    await asyncio.wait_for(asyncio.gather(*tasks), 10)  # error: TRF008:28


async def pool(queue, session, count):
    """Workers that catch every Exception and go on: none fails, none is left."""
    failures = []

    async def worker():
        while True:
            data = await queue.get()
            if data is None:
                return
            try:
                await session.invoke(data)
            except Exception as exc:
                failures.append(exc)

    workers = [asyncio.create_task(worker()) for _ in range(count)]
    await asyncio.gather(*workers)
    return failures


async def pool_twin(queue, session, count):
    async def worker():
        while True:
            data = await queue.get()
            if data is None:
                return
            try:
                await session.invoke(data)
            except Exception:
                queue.task_done()
                raise

    workers = [asyncio.create_task(worker()) for _ in range(count)]
    await asyncio.gather(*workers)  # error: TRF008:11


# Deliberately silent: what the failure cannot leave behind, or what the
# function does not hold.
async def one_task(job):
    task = asyncio.create_task(job())
    return await asyncio.gather(task)  # one awaitable: failed, it is done


async def coroutines(first, second):
    return await asyncio.gather(first(), second())  # the gather's own tasks (docs)


async def made_in_its_arguments(first, second):
    return await asyncio.gather(asyncio.create_task(first()), asyncio.create_task(second()))


class Keeper:
    def __init__(self):
        self._tasks = set()

    async def kept(self, fetch, urls):
        tasks = [asyncio.create_task(fetch(url)) for url in urls]
        self._tasks.update(tasks)
        return await asyncio.gather(*tasks)


async def keyword_unknown(fetch, urls, **options):
    tasks = [asyncio.create_task(fetch(url)) for url in urls]
    return await asyncio.gather(*tasks, **options)


class Batcher:
    """ray's serve batching: the sub-batch tasks run a method of the class that
    catches every exception (a method with no spawn of its own, which the
    plugin's path enters to see so); its twin re-raises."""

    def __init__(self, log):
        self.log = log

    async def run_all(self, batches):
        tasks = [asyncio.create_task(self._inner(batch)) for batch in batches]
        await asyncio.gather(*tasks)

    async def run_all_twin(self, batches):
        tasks = [asyncio.create_task(self._inner_raises(batch)) for batch in batches]
        await asyncio.gather(*tasks)  # error: TRF008:15

    async def _inner(self, batch):
        try:
            await batch.process()
        except Exception:
            self.log.exception("the batch failed")

    async def _inner_raises(self, batch):
        try:
            await batch.process()
        except Exception:
            self.log.exception("the batch failed")
            raise


def spawn(coro):
    """A helper that runs its argument as a task (aio-scrapy's ``create_task``)."""
    return asyncio.create_task(coro)


async def apply_wrapped(receiver):
    try:
        return await receiver()
    except (Exception, BaseException) as exc:
        return exc


async def apply_plain(receiver):
    return await receiver()


async def send_catch_log(receivers):
    """aio-scrapy's signals: each receiver's task, made by the helper, runs a
    coroutine that catches every exception; the twin's may fail."""
    tasks = []
    for receiver in receivers:
        tasks.append(spawn(apply_wrapped(receiver)))
    return await asyncio.gather(*tasks)


async def send_twin(receivers):
    tasks = []
    for receiver in receivers:
        tasks.append(spawn(apply_plain(receiver)))
    return await asyncio.gather(*tasks)  # error: TRF008:18


async def one_worker_in_a_list(fetch, stream, queue):
    # one task in the list the gather waits on: when it fails, it is done (parfive's
    # FTP download, a false alarm of the twenty-third trial, left: TRF008's known problems)
    workers = []
    writer = asyncio.create_task(queue.join())
    workers.append(asyncio.create_task(fetch(stream)))
    await asyncio.gather(*workers)  # error: TRF008:11
    writer.cancel()


async def workers_appended_in_a_loop(fetch, streams):
    workers = []
    for stream in streams:
        workers.append(asyncio.create_task(fetch(stream)))
    await asyncio.gather(*workers)  # error: TRF008:11


async def appended_by_name(kvs, items):
    """The message names the list gathered, not the loop's ``task`` appended to it."""
    tasks = []
    for key, value in items:
        task = asyncio.create_task(kvs.set_value(key, value))
        tasks.append(task)
    await asyncio.gather(*tasks)  # error: TRF008:11
