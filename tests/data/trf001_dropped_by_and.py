"""``spawn(...) and other`` is ``other`` whenever the spawn made a task (a task is
true): the task is dropped (arrlio's ``lambda *a: create_task(on_message(*a)) and
None``, a callback that returns nothing, a miss of the twenty-third trial).  The
twins keep the task: the last value of an ``and``, any value of an ``or``, and a
test (``if task and not task.done():``)."""
import asyncio


def register(queue, on_message):
    queue.consume(lambda *args: asyncio.create_task(on_message(*args)) and None)  # error: TRF001:33


async def kept(on_message, keep):
    first = keep and asyncio.create_task(on_message())
    await first
    second = asyncio.create_task(on_message()) or None
    await second
    third = asyncio.create_task(on_message())
    if third and not third.done():
        await third
