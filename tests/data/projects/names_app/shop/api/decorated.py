"""Functions decorated by a decorator of another module that makes their calls
return a new task or future (issue 32)."""
import asyncio

from .. import decorators
from ..decorators import as_future, background, kept, logged, refresh


@background
async def poll() -> None:
    await asyncio.sleep(1)


@as_future
async def fetch() -> None:
    await asyncio.sleep(1)


@kept
async def saved() -> None:
    await asyncio.sleep(1)


@logged
async def quiet() -> None:
    await asyncio.sleep(1)


class Ticker:
    @decorators.background
    async def tick(self) -> None:
        await asyncio.sleep(1)

    def go(self) -> None:
        self.tick()  # error: TRF001:9
        poll()  # error: TRF001:9
        fetch()  # error: TRF001:9
        refresh()  # error: TRF001:9
        waiting = refresh()  # error: TRF002:19
        waiting.add_done_callback(print)
        saved()
        quiet()
        self._poll = poll()
