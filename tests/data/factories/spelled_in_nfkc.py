"""A keeping factory installed through a name Python reads in NFKC (a full-width letter):
the text shortcut finds the install as the whole analysis does, and the module is silent."""
import asyncio
from typing import Any, Set

_TASKS: Set[Any] = set()


async def job() -> None:
    await asyncio.sleep(1)


async def start() -> None:
    asyncio.create_task(job())


def factory(loop, coro):
    task = asyncio.eager_task_factory(loop, coro)
    _TASKS.add(task)
    task.add_done_callback(_TASKS.discard)
    return task



def run(loop) -> None:
    loop.ｓet_task_factory(factory)
