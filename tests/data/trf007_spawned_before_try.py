"""TRF007: a task made before the try whose finally (or handler of every
exception, or of cancellation) finishes it, with a wait in between: an
exception or a cancellation of that wait leaves the function before the try,
with the task running and held by nobody (a panel client's command-line tool:
its keep-alive task, then `await client.update()`, then the `try` whose
`finally` cancels it; ninth trial of issue 32)."""
import asyncio
import contextlib
from typing import Any


async def job() -> None:
    await asyncio.sleep(1)


# ---- a wait between the spawn and its cleanup: reported --------------------------
async def keep_alive(client: Any) -> None:
    keepalive = asyncio.create_task(job())  # error: TRF007:17
    await client.update()
    try:
        await client.run()
    finally:
        keepalive.cancel()


async def wait_in_a_branch(client: Any, probe: bool) -> None:
    reader = asyncio.ensure_future(job())  # error: TRF007:14
    if probe:
        info = await client.get_info()
        print(info)
    try:
        await client.run()
    except BaseException:
        reader.cancel()
        raise
    await reader


async def cancellation_handler(client: Any) -> None:
    reader = asyncio.create_task(job())  # error: TRF007:14
    async with client.session():
        pass
    try:
        await client.run()
    except asyncio.CancelledError:
        reader.cancel()
        raise
    await reader


# ---- safe look-alikes: no finding ------------------------------------------------
async def spawned_inside_the_try(client: Any) -> None:
    try:
        keepalive = asyncio.create_task(job())
        await client.update()
        await client.run()
    finally:
        keepalive.cancel()


async def no_wait_in_between(client: Any) -> None:
    keepalive = asyncio.create_task(job())
    client.prepare()
    try:
        await client.run()
    finally:
        keepalive.cancel()


async def wait_under_its_own_try(client: Any) -> None:
    keepalive = asyncio.create_task(job())
    with contextlib.suppress(Exception):
        await client.update()
    try:
        await client.run()
    finally:
        keepalive.cancel()


async def an_outer_finally_covers_it(client: Any) -> None:
    try:
        keepalive = asyncio.create_task(job())
        await client.update()
        try:
            await client.run()
        finally:
            keepalive.cancel()
    finally:
        keepalive.cancel()


async def cleanup_for_other_errors_only(client: Any) -> None:
    # the handler cleans up after a ValueError only: no sign that every exit must
    # finish the task (what a wait may raise is the exception path of an await,
    # which TRF007 does not follow)
    reader = asyncio.create_task(job())
    await client.update()
    try:
        await client.run()
    except ValueError:
        reader.cancel()
        raise
    await reader


async def handed_on_before_the_try(client: Any) -> None:
    reader = asyncio.create_task(job())
    client.watch(reader)
    await client.update()
    try:
        await client.run()
    finally:
        reader.cancel()


async def kept_before_the_try(client: Any, keep: "set[asyncio.Task[None]]") -> None:
    reader = asyncio.create_task(job())
    keep.add(reader)
    await client.update()
    try:
        await client.run()
    finally:
        reader.cancel()


async def the_try_is_in_another_block(client: Any, fast: bool) -> None:
    reader = asyncio.create_task(job())
    await client.update()
    if fast:
        try:
            await client.run()
        finally:
            reader.cancel()
    await reader
