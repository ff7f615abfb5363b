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


class EntersMoreInside:
    """A lock held while entering something else waits there (a fresh-eyes
    review of the rule, as are the classes below)."""

    def __init__(self, loop, session):
        self._loop = loop
        self._outer_lock = asyncio.Lock()
        self._session = session

    def push(self):
        self._loop.create_task(self._push())  # error: TRF001:9

    async def _push(self):
        async with self._outer_lock:
            pass

    async def use(self):
        async with self._outer_lock:
            async with self._session:
                pass


class TwoAtOnce:
    def __init__(self, loop):
        self._loop = loop
        self._state_lock = asyncio.Lock()
        self._io_lock = asyncio.Lock()

    def note(self):
        self._loop.create_task(self._note())  # error: TRF001:9

    async def _note(self):
        async with self._state_lock:
            pass

    async def send(self, writer):
        async with self._io_lock:
            await writer.drain()

    async def snapshot(self):
        async with self._state_lock, self._io_lock:
            pass


class Aliased:
    def __init__(self, loop):
        self._loop = loop
        self._alias_lock = asyncio.Lock()

    def push(self):
        self._loop.create_task(self._push())  # error: TRF001:9

    async def _push(self):
        async with self._alias_lock:
            pass

    async def hold(self):
        lock = self._alias_lock
        async with lock:
            await asyncio.sleep(1)


class YieldsHolding:
    def __init__(self, loop):
        self._loop = loop
        self._gen_lock = asyncio.Lock()

    def push(self):
        self._loop.create_task(self._push())  # error: TRF001:9

    async def _push(self):
        async with self._gen_lock:
            pass

    async def exclusive(self):
        async with self._gen_lock:
            yield


class StoredInATuple:
    def __init__(self, loop, lock):
        self._loop = loop
        self._tuple_lock = asyncio.Lock()
        self._tuple_lock, self.n = lock, 0

    def push(self):
        self._loop.create_task(self._push())  # error: TRF001:9

    async def _push(self):
        async with self._tuple_lock:
            pass


class ClosedSemaphore:
    def __init__(self, loop):
        self._loop = loop
        self._slots = asyncio.Semaphore(0)

    def push(self):
        self._loop.create_task(self._push())  # error: TRF001:9

    async def _push(self):
        async with self._slots:
            pass


class Parent:
    def __init__(self):
        self._prop_lock = asyncio.Lock()


class Child:
    def __init__(self, loop, parent):
        self._loop = loop
        self._parent = parent

    @property
    def _prop_lock(self):
        return self._parent.io_lock

    def push(self):
        self._loop.create_task(self._push())  # error: TRF001:9

    async def _push(self):
        async with self._prop_lock:
            pass


# An asyncio.Condition: its own wait() lets the lock go while it waits, so a holder
# that only waits on the condition holds it across no wait (poethepoet's task run, a
# false alarm of the twenty-ninth trial).  Its twins: a holder that waits on anything
# else, and a wait on another condition.  (Locks are told apart by their attribute's
# name in the file: each class here names its own.)
class TaskRun:
    def __init__(self, loop):
        self._loop = loop
        self._update = asyncio.Condition()

    def done(self):
        self._loop.create_task(self._notify_update())

    async def _wait_for_update(self):
        async with self._update:
            await self._update.wait()
            await self._update.wait_for(lambda: True)

    async def _notify_update(self):
        async with self._update:
            self._update.notify_all()


class SlowHolder:
    def __init__(self, loop):
        self._loop = loop
        self._slow_update = asyncio.Condition()

    def done(self):
        self._loop.create_task(self._notify_slow_update())  # error: TRF001:9

    async def _wait_for_slow_update(self):
        async with self._slow_update:
            await self._slow_update.wait()
            await asyncio.sleep(1)

    async def _notify_slow_update(self):
        async with self._slow_update:
            self._slow_update.notify()


class OtherCondition:
    def __init__(self, loop):
        self._loop = loop
        self._own_update = asyncio.Condition()
        self._other = asyncio.Condition()

    def done(self):
        self._loop.create_task(self._notify_update())  # error: TRF001:9

    async def _wait_for_update(self):
        async with self._own_update:
            await self._other.wait()

    async def _notify_update(self):
        async with self._own_update:
            self._own_update.notify_all()


class TimedWaiter:  # ``wait_for(cond.wait(), t)`` lets the lock go as ``cond.wait()`` does
    def __init__(self, loop):
        self._loop = loop
        self._timed = asyncio.Condition()

    def done(self):
        self._loop.create_task(self._notify_timed())

    async def _wait_for_timed(self):
        async with self._timed:
            await asyncio.wait_for(self._timed.wait(), 5)

    async def _notify_timed(self):
        async with self._timed:
            self._timed.notify_all()


class ForeignWait:  # another object's ``_ready.wait()`` in the block holds this lock across it
    def __init__(self, loop, conn):
        self._loop = loop
        self._ready = asyncio.Condition()
        self.conn = conn

    def done(self):
        self._loop.create_task(self._notify_ready())  # error: TRF001:9

    async def _hold(self):
        async with self._ready:
            await self.conn._ready.wait()

    async def _notify_ready(self):
        async with self._ready:
            self._ready.notify_all()


class NestedWait:  # a wait in a function inside the block is not the block's
    def __init__(self, loop):
        self._loop = loop
        self._nested = asyncio.Condition()

    def done(self):
        self._loop.create_task(self._notify_nested())  # error: TRF001:9

    async def _hold(self):
        async with self._nested:
            async def inner():
                await self._nested.wait()
            await asyncio.sleep(10)

    async def _notify_nested(self):
        async with self._nested:
            self._nested.notify_all()


class NestedHolder:  # a nested function's own hold and wait of the condition is not the block's
    def __init__(self, loop):
        self._loop = loop
        self._inner = asyncio.Condition()

    def done(self):
        self._loop.create_task(self._notify_inner())  # error: TRF001:9

    async def _hold(self):
        async with self._inner:
            async def inner():
                async with self._inner:
                    await self._inner.wait()
            await asyncio.sleep(10)

    async def _notify_inner(self):
        async with self._inner:
            self._inner.notify_all()
