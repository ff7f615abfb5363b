"""A base class whose coroutine methods a subclass of another module runs from a thread."""
import asyncio


class BaseInput:
    def __init__(self) -> None:
        self._queue: "asyncio.Queue[bytes]" = asyncio.Queue()

    async def push_audio(self, data: bytes) -> None:
        await self._queue.put(data)

    async def push_audio_slowly(self, data: bytes) -> None:
        await asyncio.sleep(0.01)
        await self._queue.put(data)


def _registered(cls: type) -> type:
    return cls


@_registered  # a class decorator: its methods are known only loosely
class Pump:
    async def post(self, message: str) -> bool:
        return self.post_now(message)

    def post_now(self, message: str) -> bool:
        return bool(message)

    async def post_later(self, message: str) -> bool:
        await asyncio.sleep(0.01)
        return self.post_now(message)
