"""A task kept in an attribute that its own coroutine sets to None and then
waits again: from the clear on, nothing holds it (a camera's battery-close
loop that logs out after clearing its attribute, a hub's listener that
reconnects after clearing its own; eighth trial of issue 32).  Each finding
has a twin that clears the attribute only where it no longer waits."""
import asyncio


class Camera:
    def __init__(self, loop):
        self._loop = loop
        self._close_task = None
        self.idle = False

    def close_when_idle(self):
        if self._close_task is not None:
            return
        self._close_task = self._loop.create_task(self._close_loop())  # error: TRF001:28

    async def _close_loop(self):
        while not self.idle:
            await asyncio.sleep(1)
        self._close_task = None
        await self.logout()  # runs held by nobody

    async def logout(self):
        await asyncio.sleep(1)


class CameraTwin:
    def __init__(self, loop):
        self._loop = loop
        self._close_task = None
        self.idle = False

    def close_when_idle(self):
        if self._close_task is not None:
            return
        self._close_task = self._loop.create_task(self._close_loop())

    async def _close_loop(self):
        while not self.idle:
            await asyncio.sleep(1)
        await self.logout()
        self._close_task = None  # the last thing it does

    async def logout(self):
        await asyncio.sleep(1)


class Hub:
    def connect(self):
        if not self._listener_task:
            self._listener_task = asyncio.create_task(self._listen())  # error: TRF001:35

    async def _listen(self):
        connected = True
        while connected:
            try:
                await self._read()
            except ConnectionError:
                connected = False
        self._listener_task = None
        if not connected:
            await self._reconnect()

    async def _read(self):
        await asyncio.sleep(1)

    async def _reconnect(self):
        await asyncio.sleep(1)


# Deliberately silent.
class ClearsThenReturns:
    def start(self):
        self._task = asyncio.create_task(self._run())

    async def _run(self):
        while True:
            if self.idle:
                self._task = None
                return  # no wait after the clear on this path
            await asyncio.sleep(1)


class ClearsInAnotherBranch:
    def start(self):
        self._task = asyncio.create_task(self._run())

    async def _run(self):
        if self.idle:
            self._task = None
        else:
            await asyncio.sleep(1)


class HandedOn:
    def start(self, keep):
        self._task = asyncio.create_task(self._run())
        keep.add(self._task)  # another holder

    async def _run(self):
        self._task = None
        await asyncio.sleep(1)


class KeepsItself:
    def start(self):
        self._task = asyncio.create_task(self._run())

    async def _run(self):
        self._me = asyncio.current_task()
        self._task = None
        await asyncio.sleep(1)


class TwoHolders:
    def start(self):
        self._task = self._current = asyncio.create_task(self._run())

    async def _run(self):
        self._task = None  # self._current still holds it
        await asyncio.sleep(1)


class HandedByKeyword:
    def start(self, registry):
        self._task = asyncio.create_task(self._run())
        registry.register(task=self._task)

    async def _run(self):
        self._task = None
        await asyncio.sleep(1)
