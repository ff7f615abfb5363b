"""TRF007: an ``async with`` class whose methods never suspend is no wait
(``trf007_quiet_entry.py``), unless a function of the file declares its name
``global`` (it may bind another class there, whose methods wait)."""
import asyncio
from typing import Any, List


async def fetch(node: Any) -> Any:
    return await node.fetch()


class Quiet:
    async def __aenter__(self) -> None:
        return None

    async def __aexit__(self, *exc: Any) -> None:
        return None


class Waiting:
    async def __aenter__(self) -> None:
        await asyncio.sleep(1)

    async def __aexit__(self, *exc: Any) -> None:
        return None


def swap() -> None:
    global Quiet
    Quiet = Waiting  # type: ignore[misc]


async def swapped_entry(loop: Any, nodes: List[Any]) -> None:
    tasks = [loop.create_task(fetch(node)) for node in nodes]  # error: TRF007:14
    async with Quiet():
        try:
            await asyncio.gather(*tasks)
        except Exception:
            for task in tasks:
                task.cancel()
            raise
