"""TRF004: a shield awaited again until the task is done (issue 20).

The frame cannot leave before the task ends, so nothing is lost: silent in every
spelling below.  The look-alikes that can still leave early are reported.
"""
import asyncio
import contextlib
from contextlib import suppress


async def job() -> None:
    await asyncio.sleep(1)


# ---- the idiom, in every spelling: silent --------------------------------------
async def polled_with_suppress() -> None:
    closing = asyncio.create_task(job())
    while not closing.done():
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.shield(closing)


async def polled_with_imported_suppress() -> None:
    closing = asyncio.create_task(job())
    while not closing.done():
        with suppress(asyncio.CancelledError):
            await asyncio.shield(closing)


async def polled_in_finally() -> None:
    try:
        await job()
    finally:
        depletion = asyncio.create_task(job())
        while not depletion.done():
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.shield(depletion)


async def polled_with_handler(log: list) -> None:
    closing = asyncio.create_task(job())
    cancelled = None
    while not closing.done():
        try:
            await asyncio.shield(closing)
        except asyncio.CancelledError as exc:
            cancelled = exc
            log.append("cancelled while closing")
    if cancelled is not None:
        raise cancelled


async def forever_until_it_returns() -> None:
    closing = asyncio.create_task(job())
    while True:
        try:
            await asyncio.shield(closing)
            break
        except asyncio.CancelledError:
            print("cancelled again")


async def forever_returns_its_result() -> None:
    closing = asyncio.create_task(job())
    while True:
        with contextlib.suppress(asyncio.CancelledError):
            return await asyncio.shield(closing)


async def polled_until_the_task_raises() -> object:
    # litellm's MCP cleanup: the shield raises something other than
    # CancelledError only once the task itself has raised it, so the break
    # leaves a task that is done.
    task = asyncio.create_task(job())
    interrupted = None
    while not task.done():
        try:
            await asyncio.shield(task)
        except asyncio.CancelledError as exc:
            interrupted = exc
        except Exception:
            break
    if interrupted is not None:
        raise interrupted
    return task.result()


async def polled_until_the_result_or_a_failure() -> object:
    task = asyncio.create_task(job())
    result = None
    while not task.done():
        try:
            result = await asyncio.shield(task)
        except asyncio.CancelledError:
            pass
        except (OSError, ValueError):
            return None
    return result


# ---- look-alikes that can leave while the task runs: reported --------------------
async def polled_but_a_broad_handler_breaks() -> None:
    task = asyncio.create_task(job())
    while not task.done():
        try:
            await asyncio.shield(task)  # error: TRF004:19
        except asyncio.CancelledError:
            pass
        except BaseException:
            break


async def polled_but_the_break_may_follow_other_work(log: list) -> None:
    task = asyncio.create_task(job())
    while not task.done():
        try:
            log.append("waiting")
            await asyncio.shield(task)  # error: TRF004:19
        except asyncio.CancelledError:
            pass
        except Exception:
            break


async def polled_but_handler_returns() -> None:
    closing = asyncio.create_task(job())
    while not closing.done():
        try:
            await asyncio.shield(closing)  # error: TRF004:19
        except asyncio.CancelledError:
            return


async def suppressed_without_a_loop() -> None:
    closing = asyncio.create_task(job())
    with contextlib.suppress(asyncio.CancelledError):
        await asyncio.shield(closing)  # error: TRF004:15


async def forever_with_an_early_break(stop: bool) -> None:
    closing = asyncio.create_task(job())
    while True:
        if stop:
            break
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.shield(closing)  # error: TRF004:19
            break


async def spawned_in_the_loop() -> None:
    while True:
        closing = asyncio.create_task(job())
        try:
            await asyncio.shield(closing)  # error: TRF004:19
            break
        except asyncio.CancelledError:
            pass


async def polled_other_task(other: "asyncio.Task[None]") -> None:
    closing = asyncio.create_task(job())
    while not other.done():
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.shield(closing)  # error: TRF004:19


async def suppressing_something_else() -> None:
    closing = asyncio.create_task(job())
    while not closing.done():
        with contextlib.suppress(ValueError):
            await asyncio.shield(closing)  # error: TRF004:19
