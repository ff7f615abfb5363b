import asyncio

from app.audio_base import BaseInput


class LocalInput(BaseInput):
    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__()
        self._loop = loop

    def on_audio(self, data: bytes) -> None:  # a sound card's thread
        # the inherited coroutine only puts into a queue: it never waits unkept
        asyncio.run_coroutine_threadsafe(self.push_audio(data), self._loop)
        asyncio.run_coroutine_threadsafe(self.push_audio_slowly(data), self._loop)  # error: TRF001:9
