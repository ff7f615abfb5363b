"""A handler of a cancellation or a timeout that ends the function (the ``try`` is
the last statement of its body, the handler's last statement a simple one that
does not leave): the function ends there, an exit as a ``return`` there is, and
a task held only by a local that is still pending there is lost (pyjabber's
queue worker, ``except asyncio.CancelledError: pass`` around its ``while True:``
loop; a miss of the thirty-first trial).  Twins: the task cancelled, awaited or
finished on that path, the ``try`` not the last statement, a ``finally``, a
handler of another exception."""
import asyncio


async def worker(a: asyncio.Queue, b: asyncio.Queue) -> None:
    try:
        while True:
            get_a = asyncio.create_task(a.get())  # error: TRF007:21
            get_b = asyncio.create_task(b.get())  # error: TRF007:21
            done, pending = await asyncio.wait([get_a, get_b], return_when=asyncio.FIRST_COMPLETED)
            for task in pending:
                task.cancel()
            print(done.pop().result())
    except asyncio.CancelledError:
        pass


async def timed(q: asyncio.Queue, ready: asyncio.Event) -> None:
    getter = asyncio.create_task(q.get())
    try:
        await asyncio.wait_for(ready.wait(), 5)  # error: TRF003:15 (the timeout's rule says it first)
        await getter
    except asyncio.TimeoutError:
        print("not ready")


async def cancels(q: asyncio.Queue, ready: asyncio.Event) -> None:
    getter = asyncio.create_task(q.get())
    try:
        await ready.wait()
        await getter
    except asyncio.CancelledError:
        getter.cancel()


async def waits_on_it(q: asyncio.Queue) -> None:
    getter = asyncio.create_task(q.get())
    try:
        await asyncio.wait_for(getter, 5)  # (cancels it, and waits for it, when it times out)
    except asyncio.TimeoutError:
        pass


async def not_last(q: asyncio.Queue, ready: asyncio.Event) -> None:
    getter = asyncio.create_task(q.get())
    try:
        await ready.wait()
    except asyncio.CancelledError:
        pass
    await getter


async def with_finally(q: asyncio.Queue, ready: asyncio.Event) -> None:
    getter = asyncio.create_task(q.get())
    try:
        await ready.wait()
        await getter
    except asyncio.CancelledError:
        pass
    finally:
        print("done")


async def other_error(q: asyncio.Queue, ready: asyncio.Event) -> None:
    getter = asyncio.create_task(q.get())
    try:
        await ready.wait()
        await getter
    except ValueError:
        pass


async def nothing_waits_after(q: asyncio.Queue, ready: asyncio.Event) -> None:
    try:
        await ready.wait()
        getter = asyncio.create_task(q.get())
        print("made", getter)  # no wait after the spawn: the handler is not on its path
    except asyncio.CancelledError:
        print("cancelled")
    else:
        await getter


async def never_times_out(q: asyncio.Queue, ready: asyncio.Event) -> None:
    getter = asyncio.create_task(q.get())
    try:
        await ready.wait()  # (no timeout here)
        await getter
    except asyncio.TimeoutError:
        pass



class Satellite:
    """The end after such a handler is no ``return`` for the other rules: the waits after
    the loop are still the cleanup of a cancelled task (TRF009)."""

    def __init__(self, client) -> None:  # type: ignore[no-untyped-def]
        self.client = client
        self.running = True

    def start(self) -> None:
        self._mic = asyncio.create_task(self._mic_proc())

    async def stop(self) -> None:
        if self._mic is not None:
            self._mic.cancel()
            self._mic = None  # error: TRF009:13

    async def _mic_proc(self) -> None:
        while self.running:
            try:
                await self.client.read_event()
            except asyncio.CancelledError:
                break
        await self.client.disconnect()
        try:
            await self.client.wait_closed()
        except asyncio.CancelledError:
            pass
