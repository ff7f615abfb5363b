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


class Detector:
    """Registers its handlers: its ``start`` never waits."""

    def __init__(self) -> None:
        self.handlers: "list[str]" = []

    async def start(self) -> None:
        self.handlers.append("on_audio")

    async def start_slowly(self) -> None:
        await asyncio.sleep(0.01)
        self.handlers.append("on_audio")

    async def calibrate(self, level: int) -> None:
        """A hook of the subclasses (which may wait): a stub, not a coroutine that never waits."""
        _ = level  # (marks it unused)
        raise NotImplementedError
