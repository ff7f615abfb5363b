"""A handler and the ``else`` of one ``try`` exclude each other, in a loop too:
a task made in the handler of one pass meets the ``else`` of a later pass only
when nothing in its own pass finished it and the handler does not leave the
loop, which is not followed.  So the first two functions are silent, a known
miss (a timeout there, TRF003, or a ``raise``, TRF007, leaves the task pending;
docs/rules/TRF003.md), as are the others, which are safe (two fresh-eyes
reviews of issue 32: reporting them all gave three false alarms here)."""
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
            await asyncio.wait_for(fetch(val), 5)  # a later pass: not followed
    if task is not None:
        await task


async def raises_later(items):
    task = None
    for item in items:
        try:
            val = await fetch(item)
        except OSError:
            task = asyncio.create_task(recover(item))  # not followed
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


async def handler_breaks(items):
    task = None
    for item in items:
        try:
            val = await fetch(item)
        except OSError:
            task = asyncio.create_task(recover(item))
            break  # no later pass
        else:
            await asyncio.wait_for(fetch(val), 5)
    if task is not None:
        await task


async def finished_in_its_pass(items):
    for item in items:
        task = None
        try:
            val = await fetch(item)
        except OSError:
            task = asyncio.create_task(recover(item))
        else:
            await asyncio.wait_for(fetch(val), 5)
        if task is not None:
            await task  # before the next pass
