"""Grammar coverage: PEP 696 type parameter defaults (3.13)."""
import asyncio
from typing import Any

type Pair[K = str, V = asyncio.Task[Any]] = dict[K, V]


async def job(value: Any = None) -> Any:
    await asyncio.sleep(0)
    return value


class Registry[T = int, *Ts = *tuple[int, ...], **P = [int]]:
    def add(self, value: T) -> None:
        asyncio.create_task(job(value))
        self.last = asyncio.create_task(job())


def spawn_default[R = None](value: R) -> None:
    task = asyncio.create_task(job(value))
    task.cancel()
    asyncio.ensure_future(job())
