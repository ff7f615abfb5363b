"""The name a fix picks may be bound elsewhere in the file (another function, a
module global, a class attribute): the fix's self-check must not mistake it."""
import asyncio

_background_tasks: "set[asyncio.Task[object]]" = set()

get_task = None


class Holder:
    get_task = 1


async def produce(queue: "asyncio.Queue[int]") -> None:
    get_task = asyncio.create_task(queue.get())
    _background_tasks.add(get_task)
    get_task.add_done_callback(_background_tasks.discard)
    del get_task


async def consume(queue: "asyncio.Queue[int]") -> int:
    get_task = 1
    return get_task
