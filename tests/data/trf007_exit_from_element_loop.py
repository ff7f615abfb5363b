"""An exit from inside ``for t in tasks:``, a loop over the local that holds the
tasks: a pass awaits (or looks at) its own element only, so a ``return`` or
``raise`` there leaves the tasks it has not reached pending (issue 32's first two
shapes; a fresh-eyes review found the loop silent where a ``break`` out of it was
reported).  Each reported case has a silent twin."""
import asyncio


async def fetch(url):
    await asyncio.sleep(1)
    return url


async def first_hit(urls):
    tasks = [asyncio.create_task(fetch(u)) for u in urls]  # error: TRF007:14
    for t in tasks:
        if await t:
            return t.result()
    return None


async def all_good(urls):
    tasks = [asyncio.create_task(fetch(u)) for u in urls]  # error: TRF007:14
    for t in tasks:
        if not await t:
            raise ValueError("bad")
    return None


async def first_hit_cancels(urls):
    tasks = [asyncio.create_task(fetch(u)) for u in urls]
    for t in tasks:
        if await t:
            for other in tasks:
                other.cancel()
            return t.result()
    return None


async def all_good_gathered(urls):
    tasks = [asyncio.create_task(fetch(u)) for u in urls]
    await asyncio.gather(*tasks)
    for t in tasks:
        if not t.result():
            raise ValueError("bad")
    return None


async def all_visited(urls):
    tasks = [asyncio.create_task(fetch(u)) for u in urls]
    results = []
    for t in tasks:
        results.append(await t)
    if not all(results):
        raise ValueError("bad")
    return results


async def all_good_finally(urls):
    tasks = [asyncio.create_task(fetch(u)) for u in urls]
    try:
        for t in tasks:
            if not await t:
                raise ValueError("bad")
    finally:
        for t in tasks:
            t.cancel()


# The body cancels every task through the same name before it leaves (a
# review's false alarm of the first form), and a list of one task only.
async def first_hit_same_name(urls):
    tasks = [asyncio.create_task(fetch(u)) for u in urls]
    for t in tasks:
        if await t:
            for t in tasks:
                t.cancel()
            return True
    return False


async def only_one(url):
    tasks = [asyncio.create_task(fetch(url))]
    for t in tasks:
        if await t:
            return t.result()
    return None
