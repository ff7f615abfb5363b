import asyncio

from typing import Optional

from app.audio_base import BaseInput, Detector, Pump


class LocalInput(BaseInput):
    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__()
        self._loop = loop

    def on_audio(self, data: bytes) -> None:  # a sound card's thread
        # the inherited coroutine only puts into a queue: it never waits unkept
        asyncio.run_coroutine_threadsafe(self.push_audio(data), self._loop)
        asyncio.run_coroutine_threadsafe(self.push_audio_slowly(data), self._loop)  # error: TRF001:9


class Driver:
    def __init__(self, app: Pump, loop: asyncio.AbstractEventLoop) -> None:
        self._app = app
        self._loop = loop

    def send(self, message: str) -> None:
        def from_the_thread() -> None:
            # a coroutine method of the receiver's class, in another module, that never waits
            asyncio.run_coroutine_threadsafe(self._app.post(message), self._loop)
            asyncio.run_coroutine_threadsafe(self._app.post_later(message), self._loop)  # error: TRF001:13

        from_the_thread()


class Session:
    def __init__(self) -> None:
        self._detector: Optional[Detector] = None

    def begin(self) -> None:
        asyncio.create_task(self._start_detection())
        asyncio.create_task(self._start_detection_slowly())  # error: TRF001:9
        asyncio.create_task(self._calibrate())  # error: TRF001:9

    async def _start_detection(self) -> None:
        # it awaits only a coroutine of another module's class that never waits
        self._detector = Detector()
        await self._detector.start()

    async def _start_detection_slowly(self) -> None:
        self._detector = Detector()
        await self._detector.start_slowly()

    async def _calibrate(self) -> None:
        self._detector = Detector()
        await self._detector.calibrate(3)
