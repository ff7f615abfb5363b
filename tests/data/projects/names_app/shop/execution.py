"""A manager whose methods enter a condition's lock that nobody holds across a
wait (``Condition.wait()`` lets it go): they never suspend (opentrons'
``ExecutionManager``).  ``Busy`` holds its lock across a sleep: entering it waits;
so may another module hold ``Public``'s (a fresh-eyes review's false silence)."""
import asyncio


class ExecutionManager:
    def __init__(self) -> None:
        self._paused = False
        self._condition = asyncio.Condition()

    async def pause(self) -> None:
        async with self._condition:
            self._paused = True

    async def resume(self) -> None:
        async with self._condition:
            self._paused = False
            self._condition.notify_all()

    async def wait_for_running(self) -> None:
        async with self._condition:
            while self._paused:
                await self._condition.wait()


class Busy:
    def __init__(self) -> None:
        self._lock = asyncio.Lock()

    async def pause(self) -> None:
        async with self._lock:
            pass

    async def work(self) -> None:
        async with self._lock:
            await asyncio.sleep(1)


class Public:
    """A public lock: another module may hold it across a wait (``hold``)."""

    def __init__(self) -> None:
        self.lock = asyncio.Lock()

    async def pause(self) -> None:
        async with self.lock:
            pass


async def hold(public: Public) -> None:
    async with public.lock:
        await asyncio.sleep(10)


class ExecutionManagerProvider:
    def __init__(self) -> None:
        self._execution_manager = ExecutionManager()
        self._busy = Busy()
        self._public = Public()
