"""A coroutine that clears the attribute holding its own task, on the paths it
takes: a clear in one part of a ``try`` and a wait in a part that cannot follow
it (a handler and the ``else``; the body's last statement and a handler) is
silent; a clear in a ``while True:`` loop is followed by the next pass's wait
(fresh-eyes review of issue 32's self-clear).  Each silent case has a reported
twin."""
import asyncio
import logging

log = logging.getLogger(__name__)


class HandlerThenElse:
    def __init__(self):
        self._task = None

    def start(self):
        self._task = asyncio.create_task(self._run())

    async def _run(self):
        try:
            conn = await asyncio.open_connection("h", 1)
        except OSError:
            self._task = None  # the 'else' below never runs after this
            log.warning("no connection")
        else:
            await self.serve(conn)

    async def serve(self, conn):
        await asyncio.sleep(1)


class HandlerThenAfterTry:
    def __init__(self):
        self._task = None

    def start(self):
        self._task = asyncio.create_task(self._run())  # error: TRF001:22

    async def _run(self):
        try:
            conn = await asyncio.open_connection("h", 1)
        except OSError:
            self._task = None
            log.warning("no connection")
            conn = None
        await self.serve(conn)  # after the handler too

    async def serve(self, conn):
        await asyncio.sleep(1)


class BodyThenHandler:
    def __init__(self):
        self._task = None

    def start(self):
        self._task = asyncio.create_task(self._run())

    async def _run(self):
        try:
            await asyncio.sleep(1)
            self._task = None  # nothing after it in the body can raise
        except Exception:
            await asyncio.sleep(1)


class BodyThenAfterTry:
    def __init__(self):
        self._task = None

    def start(self):
        self._task = asyncio.create_task(self._run())  # error: TRF001:22

    async def _run(self):
        try:
            await asyncio.sleep(1)
            self._task = None
        except Exception:
            pass
        await asyncio.sleep(1)


class ForeverLoop:
    def __init__(self):
        self._task = None
        self.queue = asyncio.Queue()

    def start(self):
        self._task = asyncio.create_task(self._run())  # error: TRF001:22

    async def _run(self):
        while True:
            item = await self.queue.get()  # the next pass waits here
            if item == 0:
                self._task = None


class ForeverLoopBreaks:
    def __init__(self):
        self._task = None
        self.queue = asyncio.Queue()

    def start(self):
        self._task = asyncio.create_task(self._run())

    async def _run(self):
        while True:
            item = await self.queue.get()
            if item == 0:
                self._task = None
                break


class ConditionLoop:
    def __init__(self):
        self._task = None
        self.queue = asyncio.Queue()
        self.running = True

    def start(self):
        self._task = asyncio.create_task(self._run())

    async def _run(self):
        while self.running:  # may end before a next pass: silent
            item = await self.queue.get()
            if item == 0:
                self._task = None
                self.running = False


class HandlerThenElseInALoop:
    """A handler and the ``else`` exclude each other in one pass only; a later
    pass is not followed (a known miss, silent: precision first)."""

    def __init__(self):
        self._task = None

    def start(self, hosts):
        self._task = asyncio.create_task(self._run(hosts))

    async def _run(self, hosts):
        for host in hosts:
            try:
                conn = await asyncio.open_connection(host, 1)
            except OSError:
                self._task = None  # pass 1 fails
            else:
                await self.serve(conn)  # pass 2 waits, held by nobody

    async def serve(self, conn):
        await asyncio.sleep(1)


class ForeverLoopInnerBreak:
    def __init__(self):
        self._task = None
        self.queue = asyncio.Queue()

    def start(self):
        self._task = asyncio.create_task(self._run())  # error: TRF001:22

    async def _run(self):
        while True:
            item = await self.queue.get()  # the next pass waits here
            for part in item:
                if part:
                    break  # leaves the 'for' only
            if item == 0:
                self._task = None


class ForeverLoopReturnsAfter:
    def __init__(self):
        self._task = None
        self.queue = asyncio.Queue()

    def start(self):
        self._task = asyncio.create_task(self._run())

    async def _run(self):
        while True:
            item = await self.queue.get()
            if item is None:
                try:
                    self.flush()
                finally:
                    self._task = None
                return  # always leaves after the clear

    def flush(self):
        pass


class ForeverLoopReturnsFirst:
    def __init__(self):
        self._task = None
        self.queue = asyncio.Queue()

    def start(self):
        self._task = asyncio.create_task(self._run())

    async def _run(self):
        while True:
            if self._task is None:
                return  # the next pass leaves before it waits
            item = await self.queue.get()
            if item == 0:
                self._task = None


class ForeverLoopSentinel:
    def __init__(self):
        self._task = None
        self.queue = asyncio.Queue()

    def start(self):
        self._task = asyncio.create_task(self._run())  # error: TRF001:22

    async def _run(self):
        while True:
            item = await self.queue.get()  # the next pass waits here first
            if item is None:
                return  # a shutdown sentinel, before the clear
            if item == 0:
                self._task = None


class ForeverLoopCaughtRaise:
    def __init__(self):
        self._task = None
        self.queue = asyncio.Queue()

    def start(self):
        self._task = asyncio.create_task(self._run())  # error: TRF001:22

    async def _run(self):
        while True:
            try:
                item = await self.queue.get()
                if item < 0:
                    raise ValueError(item)  # caught below: the loop goes on
            except ValueError:
                continue
            if item == 0:
                self._task = None


class ForeverLoopReturnsThroughFinally:
    def __init__(self):
        self._task = None
        self.queue = asyncio.Queue()

    def start(self):
        self._task = asyncio.create_task(self._run())

    async def _run(self):
        while True:
            item = await self.queue.get()
            if item is None:
                try:
                    return  # its way out runs the clear
                finally:
                    self._task = None


class Closed(Exception):
    pass


class ForeverLoopRaisesOut:
    def __init__(self):
        self._task = None
        self.queue = asyncio.Queue()

    def start(self):
        self._task = asyncio.create_task(self._run())

    async def _run(self):
        try:
            while True:
                item = await self.queue.get()
                if item is None:
                    self._task = None
                raise Closed from None  # caught outside the loop: no next pass
        except Closed:
            pass


class ReturnsAwaiting:
    """The clear, then ``return await self.close()`` (aioice's consent check, a miss
    of the nineteenth trial): the way out waits first, held by nobody."""

    def __init__(self):
        self._task = None

    def start(self):
        self._task = asyncio.create_task(self._check())  # error: TRF001:22

    async def _check(self):
        while True:
            await asyncio.sleep(5)
            if self.expired():
                self._task = None
                return await self.close()

    def expired(self):
        return True

    async def close(self):
        await asyncio.sleep(1)


class ReturnsWithoutWaiting:
    """Its twin: the clear, then a ``return`` that does not wait."""

    def __init__(self):
        self._task = None

    def start(self):
        self._task = asyncio.create_task(self._check())

    async def _check(self):
        while True:
            await asyncio.sleep(5)
            if self.expired():
                self._task = None
                return self.close_soon()

    def expired(self):
        return True

    def close_soon(self):
        return None


class ReturnsYieldingOnce:
    """Another twin: after the clear, waits that hold the task (the loop's
    ready queue holds it through ``asyncio.sleep(0)``, a queue its putter)."""

    def __init__(self, queue):
        self._task = None
        self._queue = queue

    def start(self):
        self._task = asyncio.create_task(self._check())

    async def _check(self):
        await asyncio.sleep(5)
        self._task = None
        await self._queue.put(None)
        return await asyncio.sleep(0)
