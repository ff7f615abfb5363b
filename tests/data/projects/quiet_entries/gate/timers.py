"""Context managers whose ``__aenter__`` sets a timer (never suspends), or waits."""
import asyncio
from typing import Any, Optional


class OpTimeout:
    """emcache's shape: the entry only arms a timer."""

    def __init__(self, timeout: Optional[float], loop: Any) -> None:
        self._timeout = timeout
        self._loop = loop
        self._task = asyncio.current_task(loop)
        self._handle: Any = None

    def _on_timeout(self) -> None:
        if self._task is not None:
            self._task.cancel()

    async def __aenter__(self) -> None:
        if self._timeout is not None:
            self._handle = self._loop.call_later(self._timeout, self._on_timeout)

    async def __aexit__(self, *exc: Any) -> None:
        if self._handle is not None:
            self._handle.cancel()


class Connecting:
    """The entry waits: a cancellation can come from it."""

    async def __aenter__(self) -> "Connecting":
        await asyncio.sleep(0.1)
        return self

    async def __aexit__(self, *exc: Any) -> None:
        return None


class Inherited(OpTimeout, asyncio.Event):
    """A base outside the project comes first in no order we can trust."""


class Stub:
    """A stub entry is a hook a subclass overrides."""

    async def __aenter__(self) -> None:
        pass

    async def __aexit__(self, *exc: Any) -> None:
        return None


class YieldsOnce:
    """The entry yields to the loop once: a cancellation can come there."""

    async def __aenter__(self) -> None:
        await asyncio.sleep(0)

    async def __aexit__(self, *exc: Any) -> None:
        return None


class LeavesWaiting:
    """The entry never waits, the exit does."""

    async def __aenter__(self) -> "LeavesWaiting":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await asyncio.sleep(1)


class ReturnsItself:
    """The usual entry, which returns the object: it never waits."""

    async def __aenter__(self) -> "ReturnsItself":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        return None
