"""TRF001 for a task kept in ``self.attr`` whose coroutine awaits a method of
its class that clears the attribute and then waits: from the clear on, nothing
holds the task while it waits (aiomqttc's keep-alive loop and aiosendspin's
reader, which call ``disconnect()`` from inside themselves).  The twins wait
before they clear, clear without waiting, cancel the task right before they
clear it (from inside the task, that cancels its next wait at once: a fresh-eyes
review's), or await a method of another object."""
import asyncio


class Client:
    async def connect(self):
        self._ping = asyncio.create_task(self._keep_alive())  # error: TRF001:22
        self._reader = asyncio.create_task(self._read_loop())  # error: TRF001:24
        self._quiet = asyncio.create_task(self._quiet_loop())
        self._early = asyncio.create_task(self._early_loop())
        self._other = asyncio.create_task(self._other_loop())
        self._stopping = asyncio.create_task(self._stopping_loop())

    async def _keep_alive(self):
        while self.connected:
            try:
                await self.protocol.ping()
            except Exception:
                await self.handle_disconnect()
                break
            await asyncio.sleep(1)

    async def handle_disconnect(self):
        self._ping = None
        await self.protocol.close()

    async def _read_loop(self):
        while True:
            message = await self.ws.receive()
            if message is None:
                await self._teardown()
                return

    async def _teardown(self):
        await self._close_reader()

    async def _close_reader(self):
        if self._reader is not None:
            self._reader = None
        if self.ws is not None:
            await self.ws.close()

    async def _quiet_loop(self):
        await self.protocol.ping()
        await self._forget_quiet()

    async def _forget_quiet(self):
        self._quiet = None

    async def _early_loop(self):
        await self.protocol.ping()
        await self._close_early()

    async def _close_early(self):
        await self.protocol.close()
        self._early = None

    async def _other_loop(self):
        await self.protocol.ping()
        await self.peer.handle_disconnect()

    async def _stopping_loop(self):
        await self.protocol.ping()
        await self._stop()

    async def _stop(self):
        if self._stopping is not None:
            self._stopping.cancel()
            self._stopping = None
        await self.protocol.close()
