"""A keeping factory installed in a decorator's call is not looked at (on either path)."""
import asyncio
import weakref
from typing import Any, Callable, Coroutine, Set

_TASKS: Set["asyncio.Future[Any]"] = set()


async def job() -> None:
    await asyncio.sleep(1)


async def start() -> None:
    asyncio.create_task(job())  # error: TRF001:5


def factory(loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, Any]) -> "asyncio.Future[Any]":
    task = asyncio.Task(coro, loop=loop)
    _TASKS.add(task)
    task.add_done_callback(_TASKS.discard)
    return task


def on_loop(hook: Any) -> Callable[[Any], Any]:
    return lambda f: f


@on_loop(lambda loop: loop.set_task_factory(factory))
def main() -> None:
    pass
