"""A coroutine whose only wait is ``async with asyncio.Lock():`` (or a
semaphore free to take) made in the statement itself: nobody else can hold
that lock, so neither its entry nor its exit waits, and the task ends in its
first step (hydrogram's dispatcher, a false alarm of the twenty-sixth trial).
The twins take a semaphore of 0, or wait in the block."""
import asyncio

groups = {}


class Dispatcher:
    def __init__(self, loop):
        self.loop = loop

    def add_handler(self, handler, group):
        async def fn():
            async with asyncio.Lock():
                groups.setdefault(group, []).append(handler)

        self.loop.create_task(fn())

    def add_counted(self, handler, group):
        async def fn():
            async with asyncio.Semaphore(2):
                groups.setdefault(group, []).append(handler)

        self.loop.create_task(fn())

    # ------------------------------------------------------------ the twins
    def add_closed(self, handler, group):
        async def fn():
            async with asyncio.Semaphore(0):
                groups.setdefault(group, []).append(handler)

        self.loop.create_task(fn())  # error: TRF001:9

    def add_waiting(self, handler, group):
        async def fn():
            async with asyncio.Lock():
                await asyncio.sleep(1)
                groups.setdefault(group, []).append(handler)

        self.loop.create_task(fn())  # error: TRF001:9
