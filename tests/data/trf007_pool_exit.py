"""TRF007: a wait in a loop that rebinds the set it waits on (``done, pending =
await asyncio.wait(pending, return_when=FIRST_COMPLETED)``) is taken to finish
its tasks because the next pass waits on them again; an exit that leaves the loop
after it in the same pass (a ``return``, a ``raise``, a ``break`` of that loop)
skips the next pass, and the tasks still pending there are dropped (py-near's
broadcast, which returns the first good answer with the other requests running: a
miss of the fortieth trial)."""
import asyncio
from typing import Any, Awaitable, Callable, List


Fetch = Callable[[str], Awaitable[Any]]


# ---- the loop left with tasks still pending: reported ---------------------------
async def first_good(fetch: Fetch, urls: List[str]) -> Any:
    pending = [asyncio.create_task(fetch(url)) for url in urls]  # error: TRF007:16
    while pending:
        done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
        for task in done:
            result = task.result()
            if result is not None:
                return result
    return None


async def first_failure(fetch: Fetch, urls: List[str]) -> None:
    pending = {asyncio.create_task(fetch(url)) for url in urls}  # error: TRF007:16
    while pending:
        done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_EXCEPTION)
        if any(task.exception() for task in done):
            raise RuntimeError("a fetch failed")


async def broken_off(fetch: Fetch, urls: List[str]) -> int:
    pending = [asyncio.create_task(fetch(url)) for url in urls]  # error: TRF007:16
    count = 0
    while pending:
        done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
        count += len(done)
        if count > 3:
            break
    return count


# ---- finished or handed on before the loop is left: no finding ------------------
async def first_good_cancelling(fetch: Fetch, urls: List[str]) -> Any:
    pending = [asyncio.create_task(fetch(url)) for url in urls]
    while pending:
        done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
        for task in done:
            result = task.result()
            if result is not None:
                for other in pending:
                    other.cancel()
                return result
    return None


async def inner_break(fetch: Fetch, urls: List[str]) -> List[Any]:
    pending = [asyncio.create_task(fetch(url)) for url in urls]
    results = []
    while pending:
        done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
        for task in done:
            if task.exception() is not None:
                break
            results.append(task.result())
    return results


async def broken_off_then_cancelled(fetch: Fetch, urls: List[str]) -> int:
    pending = [asyncio.create_task(fetch(url)) for url in urls]
    count = 0
    while pending:
        done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
        count += len(done)
        if count > 3:
            break
    for task in pending:
        task.cancel()
    return count


async def first_good_gathered(fetch: Fetch, urls: List[str]) -> Any:
    pending = [asyncio.create_task(fetch(url)) for url in urls]
    while pending:
        done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
        for task in done:
            if task.result() is not None:
                await asyncio.gather(*pending, return_exceptions=True)
                return task.result()
    return None


async def refill_then_drain(fetch: Fetch, queue: "asyncio.Queue[str]") -> None:
    pending: "set[asyncio.Task[Any]]" = set()
    while True:
        while len(pending) < 10 and not queue.empty():
            pending.add(asyncio.create_task(fetch(queue.get_nowait())))
        while pending:
            done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
            if queue.qsize() > 5:
                break  # (back to the refill: the next drain waits on them again)
        await asyncio.sleep(1)


async def returned_once_empty(fetch: Fetch, urls: List[str]) -> List[Any]:
    pending = {asyncio.create_task(fetch(url)) for url in urls}
    results: List[Any] = []
    while True:
        done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
        results.extend(task.result() for task in done)
        if pending:
            continue
        return results
