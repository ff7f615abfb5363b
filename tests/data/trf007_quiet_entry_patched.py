"""TRF007: an ``async with`` entry whose ``__aenter__`` never suspends is no wait
(``trf007_quiet_entry.py``), unless the file stores a method of that name
anywhere, also in a function (``Cls.__aenter__ = other``): then it may be another,
which waits."""
import asyncio
from typing import Any, List


async def fetch(node: Any) -> Any:
    return await node.fetch()


class Armed:
    async def __aenter__(self) -> None:
        return None

    async def __aexit__(self, *exc: Any) -> None:
        return None


async def connecting_enter(self: Any) -> None:
    await asyncio.sleep(0.1)


def install() -> None:
    Armed.__aenter__ = connecting_enter  # type: ignore[assignment]


async def patched_entry(loop: Any, nodes: List[Any]) -> None:
    tasks = [loop.create_task(fetch(node)) for node in nodes]  # error: TRF007:14
    async with Armed():
        try:
            await asyncio.gather(*tasks)
        except Exception:
            for task in tasks:
                task.cancel()
            raise
