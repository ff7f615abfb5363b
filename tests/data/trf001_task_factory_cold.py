"""A task factory of the module at module level, installed by a method, neither of
which names a spawner (the text shortcut enters both all the same): it keeps each
task, so the module has no finding (see trf001_task_factory_keeps.py)."""
import asyncio
from typing import Any, Callable, Coroutine, Set

_TASKS: Set["asyncio.Future[Any]"] = set()
_MAKE: Callable[..., "asyncio.Future[Any]"] = asyncio.Task


def keeping_factory(loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, Any]) -> "asyncio.Future[Any]":
    made = _MAKE(coro, loop=loop)
    _TASKS.add(made)
    made.add_done_callback(_TASKS.discard)
    return made


async def job() -> None:
    await asyncio.sleep(1)


class Service:
    def install(self, loop: asyncio.AbstractEventLoop) -> None:
        loop.set_task_factory(keeping_factory)  # type: ignore[arg-type]

    async def start(self) -> None:
        asyncio.create_task(job())  # (kept by the factory's set)
