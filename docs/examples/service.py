"""A small service with the task-lifetime bugs flake8-taskref finds.

Run: flake8 --select TRF docs/examples/
"""
import asyncio
from typing import Optional


class Dispatcher:
    def __init__(self) -> None:
        self._loop = asyncio.new_event_loop()

    def start(self) -> None:
        asyncio.create_task(self._watch())  # TRF001: the handle is dropped
        self._loop.create_task(self._expire())  # TRF001: loop receiver, dropped

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(1)

    async def _expire(self) -> None:
        while True:
            await asyncio.sleep(60)

    async def refresh(self) -> None:
        task = asyncio.create_task(self._watch())  # TRF002: dies with the frame
        task.add_done_callback(print)

    async def handle(self, arrival: "asyncio.Future[bytes]") -> Optional[bytes]:
        encode = asyncio.create_task(self._watch())
        try:
            data = await asyncio.wait_for(arrival, timeout=10)  # TRF003: timeout unwinds
        except asyncio.TimeoutError:
            return None
        await encode
        return data
