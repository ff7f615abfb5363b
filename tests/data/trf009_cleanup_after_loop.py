"""TRF009 where the coroutine's cleanup is the code after its loop: a handler
of the cancellation ``break``s out of the loop, and the first wait after it
runs on every cancellation that lands in the loop's ``try`` (wyoming-satellite's
service tasks: ``except CancelledError: break``, then ``await disconnect()``).
The twins re-raise, return or raise before waiting (also under an ``if``), or
wait only under an ``if``."""
import asyncio


class Satellite:
    def start(self):
        self._mic = asyncio.create_task(self._mic_proc())
        self._snd = asyncio.create_task(self._snd_proc())
        self._wake = asyncio.create_task(self._wake_proc())
        self._event = asyncio.create_task(self._event_proc())
        self._closing = asyncio.create_task(self._closing_proc())

    async def stop(self):
        if self._mic is not None:
            self._mic.cancel()
            self._mic = None  # error: TRF009:13
        if self._snd is not None:
            self._snd.cancel()
            self._snd = None
        if self._wake is not None:
            self._wake.cancel()
            self._wake = None
        if self._event is not None:
            self._event.cancel()
            self._event = None
        if self._closing is not None:
            self._closing.cancel()
            self._closing = None

    async def _mic_proc(self):
        while self.running:
            try:
                await self.client.read_event()
            except asyncio.CancelledError:
                break
            except Exception:
                await asyncio.sleep(1)
        await self.client.disconnect()

    async def _snd_proc(self):
        while self.running:
            try:
                await self.client.read_event()
            except asyncio.CancelledError:
                raise
        await self.client.disconnect()

    async def _wake_proc(self):
        while self.running:
            try:
                await self.client.read_event()
            except asyncio.CancelledError:
                break
        return None
        await self.client.disconnect()

    async def _event_proc(self):
        while self.running:
            try:
                await self.client.read_event()
            except asyncio.CancelledError:
                break
        if self.client is not None:
            await self.client.disconnect()

    async def _closing_proc(self):
        while self.running:
            try:
                await self.client.read_event()
            except asyncio.CancelledError:
                break
        if self.client.closed:
            return
        await self.client.disconnect()
