"""TRF004: the future asyncio.shield() returns keeps what it shields while it lives (issue 20).

A shield whose returned future outlives the frame (stored, returned, passed on,
added to a kept collection) keeps the inner task: silent.  One that is only
awaited, here or through a local, is reported as before.
"""
import asyncio
from typing import List, Optional

futures: List["asyncio.Future[None]"] = []


async def job() -> None:
    await asyncio.sleep(1)


class Closer:
    def __init__(self) -> None:
        self.close_task: Optional["asyncio.Future[None]"] = None

    async def _close(self) -> None:
        await asyncio.sleep(1)

    # ---- the future outlives the frame: silent --------------------------------
    def close(self) -> "asyncio.Future[None]":
        self.close_task = asyncio.shield(self._close())
        return self.close_task

    def close_returned(self) -> "asyncio.Future[None]":
        return asyncio.shield(self._close())

    def close_through_a_local(self) -> None:
        fut = asyncio.shield(self._close())
        self.close_task = fut

    def close_into_module_list(self) -> None:
        futures.append(asyncio.shield(asyncio.create_task(job())))

    def close_task_kept(self) -> None:
        task = asyncio.create_task(job())
        self.close_task = asyncio.shield(task)

    async def close_gathered_and_kept(self) -> None:
        self.close_task = asyncio.gather(asyncio.shield(self._close()))

    # ---- the future is only awaited: reported ---------------------------------
    async def close_awaited(self) -> None:
        await asyncio.shield(self._close())  # error: TRF004:15

    async def close_awaited_through_a_local(self) -> None:
        fut = asyncio.shield(self._close())  # error: TRF004:15
        await fut

    async def close_gathered(self) -> None:
        await asyncio.gather(asyncio.shield(self._close()))  # error: TRF004:30

    async def close_local_list(self) -> None:
        pending = []
        pending.append(asyncio.shield(self._close()))  # error: TRF004:24
        await asyncio.gather(*pending)


async def my_wait_for(fut: "asyncio.Future[None]", timeout: float) -> None:
    await asyncio.wait_for(fut, timeout)


async def restart(timeout: float) -> None:
    async def _() -> None:
        await asyncio.sleep(1)

    await my_wait_for(asyncio.shield(_()), timeout)  # error: TRF004:23
