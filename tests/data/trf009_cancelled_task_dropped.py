"""A task kept in ``self.attr``, cancelled and at once dropped (``self.attr =
None``, a new task, ``del``), while its coroutine waits again in its cleanup:
``cancel()`` only asks, and once the attribute is cleared nothing holds the task
while its ``finally`` (or its handler of the cancellation) waits (discord.py's
voice connector, strands' restart timer, yeelight's listen task).  The twins
await the task after cancel(), keep it elsewhere, or have a cleanup that does
not wait, or not on every cancellation."""
import asyncio
import concurrent.futures
import json


class Watcher:
    def start(self):
        self._task = asyncio.create_task(self._run())

    def stop(self):
        if self._task is not None:
            self._task.cancel()
            self._task = None  # error: TRF009:13

    async def _run(self):
        try:
            while True:
                await self.poll()
        finally:
            await self._close()

    async def _close(self):
        await self.ws.close()


class Connector:
    async def connect(self, wait=True):
        if self._connector:
            self._connector.cancel()
            self._connector = None  # error: TRF009:13
        self._connector = asyncio.get_running_loop().create_task(self._wrap())
        if wait:
            await self._connector

    async def _wrap(self):
        try:
            await self.handshake()
        except asyncio.CancelledError:
            await self.soft_disconnect()
            raise


class Restarter:
    def arm(self):
        self._timer.cancel()
        self._timer = asyncio.create_task(self._countdown())  # error: TRF009:9

    def disarm(self):
        self._timer.cancel()
        del self._timer  # error: TRF009:9

    async def _countdown(self):
        try:
            await asyncio.sleep(30)
        except BaseException:
            await asyncio.gather(self.notify(), return_exceptions=True)
            raise


class AwaitedTwin:
    def start(self):
        self._task = asyncio.create_task(self._run())

    async def stop(self):
        self._task.cancel()
        await asyncio.gather(self._task, return_exceptions=True)
        self._task = None

    async def stop_through_a_local(self):
        task = self._task
        self._task.cancel()
        self._task = None
        await asyncio.gather(task, return_exceptions=True)

    async def _run(self):
        try:
            await self.serve()
        finally:
            await self.ws.close()


class QuietCleanupTwin:
    def start(self):
        self._task = asyncio.create_task(self._run())
        self._other = asyncio.create_task(self._guarded())
        self._third = asyncio.create_task(self._failing())
        self._fourth = asyncio.create_task(self._entered())

    def stop(self):
        self._task.cancel()
        self._task = None
        self._other.cancel()
        self._other = None
        self._third.cancel()
        self._third = None
        self._fourth.cancel()
        self._fourth = None

    async def _run(self):
        try:
            await self.serve()
        finally:
            self.closed = True
            await self._mark()  # never suspends

    async def _mark(self):
        self.marked = True

    async def _guarded(self):
        try:
            await self.serve()
        finally:
            if not self.stopping:  # not on every cancellation
                await self.ws.close()

    async def _failing(self):
        try:
            await self.serve()
        except Exception:  # not a cancellation
            await self.ws.close()

    async def _entered(self):
        self.ready = True
        try:
            self.count = 1  # the body never waits: no cancellation lands in it
        finally:
            await self.ws.close()
        await self.serve()


class KeptTwin:
    def start(self):
        self._task = asyncio.create_task(self._run())
        self._tasks.add(self._task)

    def stop(self):
        self._task.cancel()
        self._task = None

    async def _run(self):
        try:
            await self.serve()
        finally:
            await self.ws.close()


class NotAtOnceTwin:
    def start(self):
        self._task = asyncio.create_task(self._run())

    def stop(self):
        self._task.cancel()

    def stop_if_running(self):
        if not self._task.done():
            self._task.cancel()
        else:
            self.log()
        self._task = None

    async def _run(self):
        try:
            await self.serve()
        finally:
            await self.ws.close()


class AwaitedByItsStarterTwin:
    async def connect(self):
        if self._connector:
            self._connector.cancel()
            self._connector = None  # the earlier connect() still awaits it: its task holds it
        self._connector = asyncio.get_running_loop().create_task(self._wrap())
        await self._connector

    async def _wrap(self):
        try:
            await self.handshake()
        except asyncio.CancelledError:
            await self.soft_disconnect()
            raise


class TaskGroupTwin:
    async def run(self):
        async with asyncio.TaskGroup() as tg:
            self._task = tg.create_task(self._run())  # the group keeps it and waits for it
            await self.serve()

    def stop(self):
        self._task.cancel()
        self._task = None

    async def _run(self):
        try:
            await self.serve()
        finally:
            await self.ws.close()


class KeptBeforeTheCancelTwin:
    def start(self):
        self._task = asyncio.create_task(self._run())
        self._all = [self._task]

    def start_other(self):
        self._other = asyncio.create_task(self._run())

    def stop(self):
        self._task.cancel()
        self._task = None

    def stop_other(self):
        self._stopping.add(self._other)
        self._other.add_done_callback(self._stopping.discard)
        self._other.cancel()
        self._other = None

    async def _run(self):
        try:
            await self.serve()
        finally:
            await self.ws.close()


class Outer:
    def start(self):
        self._task = asyncio.create_task(self._run())

    class Helper:  # its ``self`` is another object
        def stop(self):
            self._task.cancel()
            self._task = None

    async def _run(self):
        try:
            await self.serve()
        finally:
            await self.ws.close()


class HandlersTwin:
    def start(self):
        self._first = asyncio.create_task(self._caught_first())
        self._checked = asyncio.create_task(self._checks_first())
        self._other = asyncio.create_task(self._other_kind())

    def stop(self):
        self._first.cancel()
        self._first = None
        self._checked.cancel()
        self._checked = None
        self._other.cancel()
        self._other = None

    async def _caught_first(self):
        try:
            await self.serve()
        except asyncio.CancelledError:
            raise
        except BaseException:  # never reached by a cancellation
            await self.report()

    async def _checks_first(self):
        try:
            await self.serve()
        except BaseException as exc:
            if isinstance(exc, asyncio.CancelledError):
                raise
            await self.report()

    async def _other_kind(self):
        try:
            await self.serve()
        except concurrent.futures.CancelledError:  # an Exception, not asyncio's
            await self.report()


class Listener:
    def start(self):
        self._task: "asyncio.Task[None]" = asyncio.create_task(self._listen())

    def stop(self):
        (self._task
         .cancel())
        self._task = None  # error: TRF009:9

    async def _listen(self):
        try:
            while True:
                self.handle(json.loads(await self.ws.recv()))  # the body waits inside an expression
        finally:
            await self.ws.close()


class GuardedCancel:
    def start(self):
        self._task = asyncio.create_task(self._run())

    def stop(self):
        if self._task is not None:
            self._task.cancel()
        self._task = None  # error: TRF009:9

    async def _run(self):
        try:
            await self.serve()
        finally:
            await self.ws.close()
