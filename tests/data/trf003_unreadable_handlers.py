"""A timeout that a handler may catch is not followed out of the frame when the
handler's classes cannot be read (``except ERRORS[0]:``, ``except
errors():``, ``except (ValueError, *extra):``): they may be the timeout.
``fut.result(timeout=None)`` waits for ever, so it is no timeout at all
(fresh-eyes review of issue 32).  Each silent case has a reported twin."""
import asyncio
import concurrent.futures

EXPECTED = [concurrent.futures.TimeoutError]


async def job() -> int:
    await asyncio.sleep(1)
    return 1


def errors() -> type:
    return concurrent.futures.TimeoutError


def subscripted(loop: asyncio.AbstractEventLoop) -> int:
    fut = asyncio.run_coroutine_threadsafe(job(), loop)
    try:
        return fut.result(5)
    except EXPECTED[0]:
        fut.cancel()
        return 0


def called(loop: asyncio.AbstractEventLoop) -> int:
    fut = asyncio.run_coroutine_threadsafe(job(), loop)
    try:
        return fut.result(5)
    except errors():
        fut.cancel()
        return 0


def starred(loop: asyncio.AbstractEventLoop, extra: tuple) -> int:
    fut = asyncio.run_coroutine_threadsafe(job(), loop)
    try:
        return fut.result(5)
    except (ValueError, *extra):
        fut.cancel()
        return 0


def named(loop: asyncio.AbstractEventLoop) -> int:
    fut = asyncio.run_coroutine_threadsafe(job(), loop)
    try:
        return fut.result(5)  # error: TRF003:16
    except ValueError:
        fut.cancel()
        return 0


def for_ever(loop: asyncio.AbstractEventLoop) -> int:
    fut = asyncio.run_coroutine_threadsafe(job(), loop)
    fut.result(timeout=None)
    return 1


def for_ever_in_try(loop: asyncio.AbstractEventLoop) -> int:
    fut = asyncio.run_coroutine_threadsafe(job(), loop)
    try:
        return fut.result(None)
    except Exception:
        return 0


def timed(loop: asyncio.AbstractEventLoop) -> int:
    fut = asyncio.run_coroutine_threadsafe(job(), loop)
    fut.result(timeout=5)  # error: TRF003:5
    return 1


def timed_in_try(loop: asyncio.AbstractEventLoop) -> int:
    fut = asyncio.run_coroutine_threadsafe(job(), loop)  # error: TRF007:11
    try:
        return fut.result(5)
    except Exception:
        return 0


async def wait_for_caught_unreadably(arrival: "asyncio.Future[int]") -> None:
    helper = asyncio.create_task(job())
    try:
        await asyncio.wait_for(arrival, 1)
    except EXPECTED[0]:
        helper.cancel()
        return
    await helper


async def wait_for_caught_by_name(arrival: "asyncio.Future[int]") -> None:
    helper = asyncio.create_task(job())
    try:
        await asyncio.wait_for(arrival, 1)  # error: TRF003:15
    except ValueError:
        helper.cancel()
        return
    await helper


async def shielded_until_a_failure() -> "int | None":
    """An unreadable handler of a shield's await may or may not catch the
    cancellation (TRF004): not known, silent, as a named one is."""
    task = asyncio.create_task(job())
    result = None
    while not task.done():
        try:
            result = await asyncio.shield(task)
        except (OSError, *EXPECTED):
            return None
        except asyncio.CancelledError:
            pass
    return result
