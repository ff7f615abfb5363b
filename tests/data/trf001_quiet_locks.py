"""A coroutine whose only wait is ``async with self.lock:`` never suspends when
no holder of the lock waits while holding it: entering a free ``asyncio.Lock``
does not suspend, and nobody can hold it when the task comes (cassandra-driver's
``_push_msg``, a false alarm of the nineteenth trial; two more in an earlier
one).  Each silent case has a reported twin: a holder that waits, a lock
acquired by hand, a lock given from outside, an attribute that is no lock, a
lock entered ``as`` a name."""
import asyncio


class Writer:
    _write_lock = None

    def __init__(self, loop):
        self._loop = loop
        self._queue = asyncio.Queue()
        self._write_lock = asyncio.Lock()

    def push(self, chunks):
        self._loop.create_task(self._push(chunks))

    async def _push(self, chunks):
        async with self._write_lock:
            for chunk in chunks:
                self._queue.put_nowait(chunk)


class Counter:
    def __init__(self, loop):
        self._loop = loop
        self._count_sem = asyncio.Semaphore(3)
        self.count = 0

    def bump(self):
        self._loop.create_task(self._bump())

    async def _bump(self):
        async with self._count_sem:
            self.count += 1

    async def reset(self):
        async with self._count_sem:
            self.count = 0


class HeldAcrossWait:
    def __init__(self, loop):
        self._loop = loop
        self._held_lock = asyncio.Lock()

    def push(self):
        self._loop.create_task(self._push())  # error: TRF001:9

    async def _push(self):
        async with self._held_lock:
            pass

    async def flush(self):
        async with self._held_lock:
            await asyncio.sleep(1)


class AcquiredByHand:
    def __init__(self, loop):
        self._loop = loop
        self._hand_lock = asyncio.Lock()

    def push(self):
        self._loop.create_task(self._push())  # error: TRF001:9

    async def _push(self):
        async with self._hand_lock:
            pass

    async def hold(self):
        await self._hand_lock.acquire()


class GivenLock:
    def __init__(self, loop, lock):
        self._loop = loop
        self._given_lock = lock

    def push(self):
        self._loop.create_task(self._push())  # error: TRF001:9

    async def _push(self):
        async with self._given_lock:
            pass


class NoLock:
    def __init__(self, loop, session):
        self._loop = loop
        self._session = session

    def push(self):
        self._loop.create_task(self._push())  # error: TRF001:9

    async def _push(self):
        async with self._session:
            pass


class EnteredAs:
    def __init__(self, loop):
        self._loop = loop
        self._named_lock = asyncio.Lock()

    def push(self):
        self._loop.create_task(self._push())  # error: TRF001:9

    async def _push(self):
        async with self._named_lock as held:
            print(held)


class SameNameElsewhere:
    def __init__(self, loop, other):
        self._loop = loop
        self._write_lock = asyncio.Lock()
        self.other = other

    def push(self):
        self._loop.create_task(self._push())

    async def _push(self):
        async with self._write_lock:
            pass


class Reader:
    def __init__(self, loop):
        self._loop = loop
        self._read_lock = asyncio.Lock()

    def pull(self):
        self._loop.create_task(self._pull())  # error: TRF001:9

    async def _pull(self):
        async with self._read_lock:
            pass


async def drain(reader):
    async with reader._read_lock:  # another receiver holds it across a wait
        await asyncio.sleep(1)
