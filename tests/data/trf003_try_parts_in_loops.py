"""A task made in a handler of a ``try`` inside a loop meets the ``else`` of a
later pass: a timeout there (TRF003) or a ``raise`` (TRF007) leaves it pending,
held by a local only.  Outside a loop, the handler and the ``else`` exclude
each other (the twins, silent)."""
import asyncio


async def fetch(item):
    await asyncio.sleep(1)


async def recover(item):
    await asyncio.sleep(1)


async def times_out_later(items):
    task = None
    for item in items:
        try:
            val = await fetch(item)
        except OSError:
            task = asyncio.create_task(recover(item))
        else:
            await asyncio.wait_for(fetch(val), 5)  # error: TRF003:19
    if task is not None:
        await task


async def raises_later(items):
    task = None
    for item in items:
        try:
            val = await fetch(item)
        except OSError:
            task = asyncio.create_task(recover(item))  # error: TRF007:20
        else:
            if val is None:
                raise ValueError(item)
    await task


async def times_out_once(item):
    task = None
    try:
        val = await fetch(item)
    except OSError:
        task = asyncio.create_task(recover(item))
    else:
        await asyncio.wait_for(fetch(val), 5)
    if task is not None:
        await task


async def raises_once(item):
    task = None
    try:
        val = await fetch(item)
    except OSError:
        task = asyncio.create_task(recover(item))
    else:
        if val is None:
            raise ValueError(item)
    await task
