"""``if pending:`` after ``done, pending = await asyncio.wait(tasks, timeout=...)``
tests the wait's pending set: in its body the tasks left pending are not
finished, so an exit there is followed (it was taken for a test that looks at the
task, whose path may be the one where it is finished).  The shape of bluesky's
``_wait_for`` (``if pending: raise WaitForTimeoutError(...)``, the tasks returned
on the usual path), read in the twentieth trial; bluesky's own passes ``**kwargs``
to the wait, which is then taken to finish its tasks (silent, as below).  Each
reported case has a silent twin."""
import asyncio


async def job():
    await asyncio.sleep(1)


async def wait_all(n):
    futs = [asyncio.create_task(job()) for _ in range(n)]  # error: TRF007:13
    done, pending = await asyncio.wait(futs, timeout=5)
    if pending:
        raise TimeoutError("not all done")
    return futs


async def wait_all_len(n):
    futs = [asyncio.create_task(job()) for _ in range(n)]  # error: TRF007:13
    done, pending = await asyncio.wait(futs, timeout=5)
    if len(pending):
        raise TimeoutError("not all done")
    return futs


async def wait_all_cancelled(n):
    futs = [asyncio.create_task(job()) for _ in range(n)]
    done, pending = await asyncio.wait(futs, timeout=5)
    if pending:
        for fut in pending:
            fut.cancel()
        raise TimeoutError("not all done")
    return futs


async def wait_all_none_pending(n):
    futs = [asyncio.create_task(job()) for _ in range(n)]
    done, pending = await asyncio.wait(futs, timeout=5)
    if not pending:
        return futs
    await asyncio.gather(*pending)
    return futs


# Keywords the code does not show: the wait is taken to finish its tasks.
async def wait_all_keywords(n, **kwargs):
    futs = [asyncio.create_task(job()) for _ in range(n)]
    done, pending = await asyncio.wait(futs, **kwargs)
    if pending:
        raise TimeoutError("not all done")
    return futs
