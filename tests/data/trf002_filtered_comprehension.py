"""A local list of tasks gathered through a comprehension whose filter leaves out
no pending task (``if t is not None``, ``if t``, ``if not t.done()``): every task
is gathered (crawlo's ``_throttle_tasks``, a false alarm of the thirty-eighth trial
of issue 32).  The twins filter on anything else: some tasks may be left out."""
import asyncio


async def throttle(tasks, limit):
    semaphore = asyncio.Semaphore(limit)

    async def throttled_task(task):
        async with semaphore:
            return await task

    throttled = []
    for task in tasks:
        if task is not None:
            throttled.append(asyncio.create_task(throttled_task(task)))
        else:
            throttled.append(None)
    await asyncio.gather(*[t for t in throttled if t is not None], return_exceptions=True)


async def truthy(coros):
    started = [asyncio.create_task(c) if c else None for c in coros]
    await asyncio.gather(*[t for t in started if t])


async def not_done(coros):
    started = [asyncio.create_task(c) for c in coros]
    await asyncio.sleep(1)
    await asyncio.gather(*[t for t in started if not t.done()])


async def by_name(coros):
    started = [asyncio.create_task(c) for c in coros]  # error: TRF002:16
    await asyncio.gather(*[t for t in started if t.get_name() == "main"])


async def by_flag(coros, flag):
    started = [asyncio.create_task(c) for c in coros]  # error: TRF002:16
    await asyncio.gather(*[t for t in started if flag])


async def other_generator(coros, others):
    started = [asyncio.create_task(c) for c in coros]  # error: TRF002:16
    await asyncio.gather(*[t for t in started for u in others if u is not None])
