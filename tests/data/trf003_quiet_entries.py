"""The entry of a task group or of an exit stack never suspends: in a timeout
block, the timeout cannot hit there, only at ``await task`` (which cancels the
task with it) or at the block's end (when the task is done).  A fresh-eyes
review's false alarm; the twin enters a lock, whose entry may wait."""
import asyncio
import contextlib


async def grouped(work):
    task = asyncio.create_task(work())
    async with asyncio.timeout(5), asyncio.TaskGroup():
        await task


async def stacked(work):
    task = asyncio.create_task(work())
    async with asyncio.timeout(5), contextlib.AsyncExitStack():
        await task


async def locked(work, lock):
    task = asyncio.create_task(work())
    async with asyncio.timeout(5), lock:  # error: TRF003:16
        await task
