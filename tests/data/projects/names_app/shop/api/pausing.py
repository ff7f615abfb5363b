"""A spawn of a coroutine that only awaits another module's method that never
suspends (it enters a lock nobody holds across a wait): done in its first step
(opentrons' ``API.pause``, four false alarms of the thirty-sixth trial's sweep).
The twin awaits a method whose lock is held across a sleep elsewhere."""
import asyncio

from ..execution import ExecutionManagerProvider


class API(ExecutionManagerProvider):
    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__()
        self._loop = loop

    def pause(self) -> None:
        async def _chained_calls() -> None:
            await self._execution_manager.pause()

        asyncio.run_coroutine_threadsafe(_chained_calls(), self._loop)

    def resume(self) -> None:
        async def _chained_calls() -> None:
            await self._execution_manager.resume()

        asyncio.run_coroutine_threadsafe(_chained_calls(), self._loop)

    def pause_busy(self) -> None:
        async def _chained_calls() -> None:
            await self._busy.pause()

        asyncio.run_coroutine_threadsafe(_chained_calls(), self._loop)  # error: TRF001:9

    def pause_public(self) -> None:
        async def _chained_calls() -> None:
            await self._public.pause()

        asyncio.run_coroutine_threadsafe(_chained_calls(), self._loop)  # error: TRF001:9
