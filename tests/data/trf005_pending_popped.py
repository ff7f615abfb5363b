"""The pending set of an ``asyncio.wait()`` of one task, its element taken with
``pending.pop()`` into a local that is cancelled and awaited: the element is all
the set can hold (arize-phoenix's ``_wait_for``, a false alarm of the
thirty-seventh trial's sweep of issue 32).  The twins wait on more than one
task, or pop the set's element and drop it: still reported."""
import asyncio


async def wait_for(coro, timeout, message=None):
    task = asyncio.create_task(coro)
    done, pending = await asyncio.wait([task], timeout=timeout)
    assert len(done) + len(pending) == 1
    if done:
        task = done.pop()
        return task.result()
    task = pending.pop()
    task.cancel(msg=message)
    try:
        return await task
    except asyncio.CancelledError:
        raise asyncio.TimeoutError()


async def first_of_two(first, second, timeout):
    one = asyncio.create_task(first)
    two = asyncio.create_task(second)
    done, pending = await asyncio.wait([one, two], timeout=timeout)  # error: TRF005:27
    task = pending.pop()
    task.cancel()
    await task
    return done


async def popped_and_dropped(coro, timeout):
    task = asyncio.create_task(coro)
    done, pending = await asyncio.wait({task}, timeout=timeout)  # error: TRF005:27
    left = pending.pop()
    print(left)
    return done
