"""TRF003 wait-for-orphans-task: a local-only handle in flight while a timeout may unwind."""
import asyncio
import logging
import asyncio as aio
from asyncio import wait_for

import async_timeout  # type: ignore[import-not-found]


async def job(n: int = 0) -> bytes:
    await asyncio.sleep(n)
    return b""


async def encode_then_wait(arrival: "asyncio.Future[bytes]") -> bytes:
    encode = asyncio.create_task(job())
    data = await asyncio.wait_for(arrival, timeout=10)  # error: TRF003:18
    await encode
    return data


async def import_spellings(arrival: "asyncio.Future[bytes]") -> None:
    first = aio.create_task(job())
    await wait_for(arrival, 1)  # error: TRF003:11
    await first


async def handler_returns(arrival: "asyncio.Future[bytes]") -> None:
    helper = asyncio.create_task(job())
    try:
        await asyncio.wait_for(arrival, timeout=1)  # error: TRF003:15
    except asyncio.TimeoutError:
        return
    await helper


async def handler_reraises(arrival: "asyncio.Future[bytes]") -> None:
    helper = asyncio.create_task(job())
    try:
        await asyncio.wait_for(arrival, timeout=1)  # error: TRF003:15
    except TimeoutError:
        print("timed out")
        raise
    await helper


async def handler_for_something_else(arrival: "asyncio.Future[bytes]") -> None:
    helper = asyncio.create_task(job())
    try:
        await asyncio.wait_for(arrival, timeout=1)  # error: TRF003:15
    except ValueError:
        helper.cancel()
    await helper


async def timeout_block() -> None:
    helper = asyncio.create_task(job())
    async with asyncio.timeout(1):  # error: TRF003:16
        await job(2)
    await helper


async def spawned_inside_timeout_block() -> None:
    async with asyncio.timeout(1):  # error: TRF003:16
        helper = asyncio.create_task(job())
        await job(2)
    await helper


async def collection_in_flight(arrival: "asyncio.Future[bytes]") -> None:
    helpers = [asyncio.create_task(job(n)) for n in range(3)]
    await asyncio.wait_for(arrival, 1)  # error: TRF003:11
    await asyncio.gather(*helpers)


async def loop_task(loop: asyncio.AbstractEventLoop, arrival: "asyncio.Future[bytes]") -> None:
    helper = loop.create_task(job())
    reply = await asyncio.wait_for(arrival, 1)  # error: TRF003:19
    print(reply)
    helper.cancel()


async def after_wait_still_pending(arrival: "asyncio.Future[bytes]") -> None:
    helper = asyncio.create_task(job())
    done, pending = await asyncio.wait({helper}, timeout=1)
    await asyncio.wait_for(arrival, 1)  # error: TRF003:11
    for task in pending:
        task.cancel()


async def one_finding_per_handle(arrival: "asyncio.Future[bytes]") -> None:
    helper = asyncio.create_task(job())
    await asyncio.wait_for(arrival, 1)  # error: TRF003:11
    await asyncio.wait_for(arrival, 1)
    await helper


# ---- safe look-alikes: no finding ------------------------------------------
async def guarded_by_finally(arrival: "asyncio.Future[bytes]") -> None:
    helper = asyncio.create_task(job())
    try:
        await asyncio.wait_for(arrival, timeout=1)
    finally:
        helper.cancel()


async def handler_awaits(arrival: "asyncio.Future[bytes]") -> None:
    helper = asyncio.create_task(job())
    try:
        await asyncio.wait_for(arrival, timeout=1)
    except asyncio.TimeoutError:
        helper.cancel()
        await asyncio.gather(helper, return_exceptions=True)
        return
    await helper


async def handler_falls_through(arrival: "asyncio.Future[bytes]") -> None:
    helper = asyncio.create_task(job())
    try:
        await asyncio.wait_for(arrival, timeout=1)
    except (ValueError, asyncio.TimeoutError):
        print("timed out")
    await helper


async def broad_handler(arrival: "asyncio.Future[bytes]") -> None:
    # no TRF003 (the handler finishes it on a timeout), but a cancellation of the
    # wait passes the handler of Exception (tests/data/trf007_cancelled_past_handler.py)
    helper = asyncio.create_task(job())  # error: TRF007:14
    try:
        await asyncio.wait_for(arrival, timeout=1)
    except Exception:
        helper.cancel()
        raise
    await helper


async def broadest_handler(arrival: "asyncio.Future[bytes]") -> None:
    helper = asyncio.create_task(job())
    try:
        await asyncio.wait_for(arrival, timeout=1)
    except BaseException:
        helper.cancel()
        raise
    await helper


async def logger_exception_is_no_wait(log: logging.Logger) -> None:
    # log.exception(msg) is no future's exception(timeout)
    helper = asyncio.create_task(job())
    log.exception("starting")
    try:
        await job()
    except ValueError:
        log.exception("failed %s", 1)
    await helper


async def os_error_handler(arrival: "asyncio.Future[bytes]") -> None:
    # Python 3.11+: asyncio.TimeoutError is TimeoutError, a subclass of OSError
    helper = asyncio.create_task(job())
    try:
        await asyncio.wait_for(arrival, timeout=1)
    except OSError:
        helper.cancel()
        raise
    await helper


async def wait_for_the_task_itself() -> None:
    helper = asyncio.create_task(job())
    await asyncio.wait_for(helper, timeout=1)


async def wait_for_a_gather_of_it() -> None:
    helper = asyncio.create_task(job())
    await asyncio.wait_for(asyncio.gather(helper, job()), timeout=1)


async def wait_on_both(arrival: "asyncio.Future[bytes]") -> None:
    helper = asyncio.create_task(job())
    receive = asyncio.ensure_future(arrival)
    done, pending = await asyncio.wait({helper, receive}, timeout=10)
    for task in pending:
        task.cancel()


async def awaited_before(arrival: "asyncio.Future[bytes]") -> None:
    helper = asyncio.create_task(job())
    await helper
    await asyncio.wait_for(arrival, 1)


class Service:
    def __init__(self) -> None:
        self.helper = None

    async def stored_before(self, arrival: "asyncio.Future[bytes]") -> None:
        helper = asyncio.create_task(job())
        self.helper = helper
        await asyncio.wait_for(arrival, 1)
        await helper


async def task_group(arrival: "asyncio.Future[bytes]") -> None:
    async with asyncio.TaskGroup() as tg:
        helper = tg.create_task(job())
        await asyncio.wait_for(arrival, 1)
    print(helper.result())


async def spawned_after(arrival: "asyncio.Future[bytes]") -> None:
    await asyncio.wait_for(arrival, 1)
    helper = asyncio.create_task(job())
    await helper


async def other_branch(arrival: "asyncio.Future[bytes]", fast: bool) -> None:
    if fast:
        helper = asyncio.create_task(job())
        await helper
    else:
        await asyncio.wait_for(arrival, 1)


async def not_a_configured_timeout() -> None:
    helper = asyncio.create_task(job())
    async with async_timeout.timeout(1):
        await job(2)
    await helper


async def nested_function_is_its_own_scope(arrival: "asyncio.Future[bytes]") -> None:
    helper = asyncio.create_task(job())

    async def inner() -> None:
        await asyncio.wait_for(arrival, 1)

    await helper
    await inner()


async def timeout_block_guarded() -> None:
    helper = asyncio.create_task(job())
    try:
        async with asyncio.timeout(1):
            await job(2)
    finally:
        helper.cancel()
