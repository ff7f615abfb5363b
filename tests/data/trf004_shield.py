"""TRF004 shield-unkept-task: asyncio.shield() of a task nobody else keeps."""
import asyncio
from typing import Callable, Set

background: Set["asyncio.Task[None]"] = set()


async def job() -> None:
    await asyncio.sleep(1)


class Saver:
    async def save(self) -> None:
        await asyncio.sleep(1)

    def helper(self) -> "asyncio.Future[None]":
        return asyncio.get_running_loop().create_future()

    async def shield_coroutine_method(self) -> None:
        await asyncio.shield(self.save())  # error: TRF004:15

    async def shield_future_from_unknown_method(self) -> None:
        await asyncio.shield(self.helper())


async def shield_new_task() -> None:
    await asyncio.shield(asyncio.create_task(job()))  # error: TRF004:11


async def shield_coroutine() -> None:
    await asyncio.shield(job())  # error: TRF004:11


async def shield_local_handle() -> None:
    task = asyncio.create_task(job())
    await asyncio.shield(task)  # error: TRF004:11


async def shield_local_handle_in_handler() -> None:
    task = asyncio.create_task(job())
    try:
        await asyncio.shield(task)  # error: TRF004:15
    except asyncio.TimeoutError:
        await task


# ---- safe look-alikes: no finding ------------------------------------------
async def shield_kept_handle() -> None:
    task = asyncio.create_task(job())
    background.add(task)
    task.add_done_callback(background.discard)
    await asyncio.shield(task)


async def shield_then_finish_on_cancel() -> None:
    task = asyncio.create_task(job())
    try:
        await asyncio.shield(task)
    except asyncio.CancelledError:
        await task
        raise


async def shield_unknown(fut: "asyncio.Future[None]", make) -> None:
    await asyncio.shield(fut)
    await asyncio.shield(make())


class Keeper:
    def __init__(self) -> None:
        self.task = None

    async def run(self) -> None:
        self.task = asyncio.create_task(job())
        await asyncio.shield(self.task)


async def shield_of_asyncio_coroutines(fn: "Callable[[], None]") -> None:
    await asyncio.shield(asyncio.to_thread(fn))  # error: TRF004:11
    await asyncio.shield(asyncio.sleep(1))  # error: TRF004:11
    local = asyncio.shield(asyncio.to_thread(fn))  # error: TRF004:13
    await local


async def shield_of_asyncio_coroutine_stored(fn: "Callable[[], None]") -> "asyncio.Future[None]":
    return asyncio.shield(asyncio.to_thread(fn))
