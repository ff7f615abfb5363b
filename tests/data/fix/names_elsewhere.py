"""The name a fix picks may be bound elsewhere in the file (another function, a
module global, a class attribute): the fix's self-check must not mistake it."""
import asyncio

get_task = None


class Holder:
    get_task = 1


async def produce(queue: "asyncio.Queue[int]") -> None:
    asyncio.create_task(queue.get())


async def consume(queue: "asyncio.Queue[int]") -> int:
    get_task = 1
    return get_task
