import asyncio

from app.audio_base import BaseInput, Pump


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
