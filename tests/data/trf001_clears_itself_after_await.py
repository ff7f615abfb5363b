"""A coroutine that clears the attribute holding a task right after awaiting
it (``await self._startup``, then ``self._startup = None``): the task in the
attribute is done by then (async-substrate-interface's startup runtime task,
cleared by a later call of the same method; a false alarm of the twenty-sixth
trial).  Its twin clears without awaiting first."""
import asyncio


class AwaitedThenCleared:
    def __init__(self):
        self._startup = None
        self.head = None

    async def initialize(self):
        self.head = head = await self.get_head()
        self._startup = asyncio.create_task(self._init(head, first=True))

    async def get_head(self):
        await asyncio.sleep(1)

    async def _init(self, head=None, first=False):
        if not first and self._startup is not None and head == self.head:
            await self._startup
            self._startup = None
        await asyncio.sleep(1)


class ClearedWithoutAwaiting:
    def __init__(self):
        self._startup = None
        self.head = None

    async def get_head(self):
        await asyncio.sleep(1)

    async def initialize(self):
        self.head = head = await self.get_head()
        self._startup = asyncio.create_task(self._init(head, first=True))  # error: TRF001:25

    async def _init(self, head=None, first=False):
        if not first and self._startup is not None and head == self.head:
            self._startup.result()
            self._startup = None
        await asyncio.sleep(1)
