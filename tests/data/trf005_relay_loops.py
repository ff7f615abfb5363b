"""``asyncio.wait(tasks, timeout=..., return_when=FIRST_COMPLETED)`` in a loop
that keeps its tasks in a local set made before it: the pending set it returns
is dropped in each pass, but the set still holds those tasks.  Silent when every
way out of the loop leaves the set empty (``if not tasks: break``), or leaves it
to a drain loop after the loops around it (``while tasks:`` at the top of the
function body, left by its test only): wapiti's attack modules, four false
alarms of the thirty-sixth trial.  The twins leave tasks in the set with no
drain after, or with a ``return`` before the drain, or drain in a loop that a
``break`` may leave."""
import asyncio


async def buster(words, limit, check):
    tasks = set()
    pending_count = 0
    while True:
        if pending_count < limit:
            try:
                word = next(words)
            except StopIteration:
                pass
            else:
                task = asyncio.create_task(check(word))
                tasks.add(task)
        if not tasks:
            break
        done_tasks, pending_tasks = await asyncio.wait(tasks, timeout=0.01, return_when=asyncio.FIRST_COMPLETED)
        pending_count = len(pending_tasks)
        for task in done_tasks:
            await task
            tasks.remove(task)


async def buster_inner_break(words, check, seen):
    tasks = set()
    while True:
        tasks.add(asyncio.create_task(check(next(words))))
        if not tasks:
            break
        done_tasks, pending_tasks = await asyncio.wait(tasks, timeout=0.01, return_when=asyncio.FIRST_COMPLETED)
        for task in done_tasks:
            tasks.remove(task)
            if task.result() in seen:
                break  # (leaves the ``for``, not the ``while``)


async def detect(paths, limit, fetch):
    found = {}
    tasks = set()
    for path in paths:
        task = asyncio.create_task(fetch(path))
        tasks.add(task)
        while tasks:
            done_tasks, pending_tasks = await asyncio.wait(tasks, timeout=0.01, return_when=asyncio.FIRST_COMPLETED)
            for task in done_tasks:
                found[path] = await task
                tasks.remove(task)
            if len(pending_tasks) <= limit:
                break
    # the tasks still running
    while tasks:
        done_tasks, pending_tasks = await asyncio.wait(tasks, timeout=0.01, return_when=asyncio.FIRST_COMPLETED)
        for task in done_tasks:
            found[None] = await task
            tasks.remove(task)
    return found


# --- the twins: reported


async def not_drained(paths, limit, fetch):
    found = {}
    tasks = set()
    for path in paths:
        task = asyncio.create_task(fetch(path))
        tasks.add(task)
        while tasks:
            done_tasks, pending_tasks = await asyncio.wait(  # error: TRF005:47
                tasks, timeout=0.01, return_when=asyncio.FIRST_COMPLETED)
            for task in done_tasks:
                found[path] = await task
                tasks.remove(task)
            if len(pending_tasks) <= limit:
                break
    return found


async def returned_before_the_drain(paths, limit, fetch, quick):
    found = {}
    tasks = set()
    for path in paths:
        task = asyncio.create_task(fetch(path))
        tasks.add(task)
        while tasks:
            done_tasks, pending_tasks = await asyncio.wait(  # error: TRF005:47
                tasks, timeout=0.01, return_when=asyncio.FIRST_COMPLETED)
            for task in done_tasks:
                found[path] = await task
                tasks.remove(task)
            if len(pending_tasks) <= limit:
                break
        if quick:
            return found
    while tasks:
        done_tasks, pending_tasks = await asyncio.wait(tasks, timeout=0.01, return_when=asyncio.FIRST_COMPLETED)
        for task in done_tasks:
            found[None] = await task
            tasks.remove(task)
    return found


async def drain_left_early(paths, limit, fetch, enough):
    found = {}
    tasks = set()
    for path in paths:
        task = asyncio.create_task(fetch(path))
        tasks.add(task)
        while tasks:
            done_tasks, pending_tasks = await asyncio.wait(  # error: TRF005:47
                tasks, timeout=0.01, return_when=asyncio.FIRST_COMPLETED)
            for task in done_tasks:
                found[path] = await task
                tasks.remove(task)
            if len(pending_tasks) <= limit:
                break
    while tasks:
        done_tasks, pending_tasks = await asyncio.wait(tasks, timeout=0.01, return_when=asyncio.FIRST_COMPLETED)
        if enough(found):
            break
        for task in done_tasks:
            found[None] = await task
            tasks.remove(task)
    return found


async def drain_under_an_if(paths, limit, fetch, wait_all):
    found = {}
    tasks = set()
    for path in paths:
        task = asyncio.create_task(fetch(path))
        tasks.add(task)
        while tasks:
            done_tasks, pending_tasks = await asyncio.wait(  # error: TRF005:47
                tasks, timeout=0.01, return_when=asyncio.FIRST_COMPLETED)
            for task in done_tasks:
                found[path] = await task
                tasks.remove(task)
            if len(pending_tasks) <= limit:
                break
    if wait_all:
        while tasks:
            done_tasks, pending_tasks = await asyncio.wait(tasks, timeout=0.01, return_when=asyncio.FIRST_COMPLETED)
            for task in done_tasks:
                found[None] = await task
                tasks.remove(task)
    return found


async def returned_from_the_loop(words, check, stop):
    tasks = set()
    while True:
        tasks.add(asyncio.create_task(check(next(words))))
        if not tasks:
            break
        done_tasks, pending_tasks = await asyncio.wait(  # error: TRF005:43
            tasks, timeout=0.01, return_when=asyncio.FIRST_COMPLETED)
        if stop():
            return None
        for task in done_tasks:
            await task
            tasks.remove(task)


async def returned_before_the_relay(paths, fetch, stop):
    tasks = set()
    for path in paths:
        tasks.add(asyncio.create_task(fetch(path)))
        if stop():
            return
        while True:
            if not tasks:
                break
            done, pending = await asyncio.wait(  # error: TRF005:35
                tasks, timeout=0.01, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                tasks.remove(task)


async def drained_under_a_timeout(paths, limit, fetch):
    tasks = set()
    for path in paths:
        tasks.add(asyncio.create_task(fetch(path)))
        while tasks:
            done, pending = await asyncio.wait(  # error: TRF005:35
                tasks, timeout=0.01, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                tasks.remove(task)
            if len(pending) <= limit:
                break
    async with asyncio.timeout(5):
        while tasks:
            done, pending = await asyncio.wait(tasks, timeout=0.01, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                tasks.remove(task)


async def returned_between_the_loops(paths, limit, fetch, quick):
    tasks = set()
    for path in paths:
        tasks.add(asyncio.create_task(fetch(path)))
        while tasks:
            done, pending = await asyncio.wait(  # error: TRF005:35
                tasks, timeout=0.01, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                tasks.remove(task)
            if len(pending) <= limit:
                break
    if quick:
        return
    while tasks:
        done, pending = await asyncio.wait(tasks, timeout=0.01, return_when=asyncio.FIRST_COMPLETED)
        for task in done:
            tasks.remove(task)
