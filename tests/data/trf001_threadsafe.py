"""run_coroutine_threadsafe is a spawner by default: its concurrent future and the
task hold each other only.  result() and exception() wait until the task is done
(with a timeout, only until it hits: then the frame unwinds with the task running);
ensure_future() of a call that returns a future makes no task."""
import asyncio
import concurrent.futures
from typing import Any, Callable


async def job() -> None:
    await asyncio.sleep(1)


def submit(loop: asyncio.AbstractEventLoop) -> "concurrent.futures.Future[None]":
    asyncio.run_coroutine_threadsafe(job(), loop)  # error: TRF001:5
    future = asyncio.run_coroutine_threadsafe(job(), loop)
    return future


def logged(loop: asyncio.AbstractEventLoop) -> None:
    future = asyncio.run_coroutine_threadsafe(job(), loop)  # error: TRF002:14
    future.add_done_callback(print)


def waits(loop: asyncio.AbstractEventLoop) -> None:
    asyncio.run_coroutine_threadsafe(job(), loop).result()
    future = asyncio.run_coroutine_threadsafe(job(), loop)
    future.result(timeout=5)  # error: TRF003:5
    failed = asyncio.run_coroutine_threadsafe(job(), loop)
    print(failed.exception())


def waits_twin(loop: asyncio.AbstractEventLoop) -> None:
    """A timeout of result() leaves the task running: cancelled on the way out,
    it is not lost (a command-line tool's session cleanup, eighth trial)."""
    future = asyncio.run_coroutine_threadsafe(job(), loop)
    try:
        future.result(timeout=5)
    finally:
        future.cancel()


def waits_in_try(loop: asyncio.AbstractEventLoop) -> Any:
    """The timeout passes a handler of other exceptions, and a finally that
    leaves the future: the frame unwinds with the task running."""
    future = asyncio.run_coroutine_threadsafe(job(), loop)
    try:
        return future.result(5)  # error: TRF003:16
    except ValueError:
        return None


def waits_in_try_finally(loop: asyncio.AbstractEventLoop) -> None:
    future = asyncio.run_coroutine_threadsafe(job(), loop)
    try:
        future.result(timeout=5)  # error: TRF003:9
    finally:
        print("done")


def waits_in_try_twins(loop: asyncio.AbstractEventLoop, other: Any) -> None:
    """Cancelled in a finally or in the timeout's handler; or a handler whose
    name may stand for the timeout (then left to the paths, or silent)."""
    future = asyncio.run_coroutine_threadsafe(job(), loop)
    try:
        future.result(timeout=5)
    except ValueError:
        pass
    finally:
        future.cancel()
    second = asyncio.run_coroutine_threadsafe(job(), loop)
    try:
        second.result(timeout=5)
    except concurrent.futures.TimeoutError:
        second.cancel()
        raise
    third = asyncio.run_coroutine_threadsafe(job(), loop)
    try:
        third.result(timeout=5)
    except other.Timeout:
        third.cancel()
        raise


def _block(future: "concurrent.futures.Future[None]") -> None:
    future.result()


def _look(future: "concurrent.futures.Future[None]") -> None:
    future.add_done_callback(print)


def helpers(loop: asyncio.AbstractEventLoop) -> None:
    _block(asyncio.run_coroutine_threadsafe(job(), loop))
    _look(asyncio.run_coroutine_threadsafe(job(), loop))  # error: TRF001:11


async def task_result_does_not_finish() -> None:
    task = asyncio.create_task(job())  # error: TRF002:12
    if task.done():
        print(task.result())


def _task_result(task: "asyncio.Task[None]") -> None:
    print(task.result())


async def helper_only_reads_the_result() -> None:
    _task_result(asyncio.create_task(job()))  # error: TRF001:18


async def futures_are_no_new_tasks(loop: asyncio.AbstractEventLoop, fn: Callable[[], Any]) -> None:
    asyncio.ensure_future(loop.run_in_executor(None, fn))
    asyncio.ensure_future(loop.create_future())
    asyncio.ensure_future(asyncio.wrap_future(concurrent.futures.Future()))
    asyncio.ensure_future(job())  # error: TRF001:5


class Bridge:
    """A thread notifies the loop: a coroutine that never suspends runs to its end
    in its task's first step, which the loop's queue holds: never pending unkept."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.event = asyncio.Event()

    def notify(self) -> None:
        asyncio.run_coroutine_threadsafe(self._set(), self.loop)
        asyncio.run_coroutine_threadsafe(self._wait(), self.loop)  # error: TRF001:9

        async def nested() -> None:
            self.event.set()

        asyncio.run_coroutine_threadsafe(nested(), self.loop)

    async def _set(self) -> None:
        self.event.set()

    async def _wait(self) -> None:
        await self.event.wait()


def _traced(fn: Callable[..., Any]) -> Callable[..., Any]:
    return fn


class Feeder:
    """A thread feeds the loop through a queue: ``put`` waits only on a bounded
    queue that is full, which keeps the waiting putter (and so the task)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.queue: "asyncio.Queue[bytes]" = asyncio.Queue()

    def on_audio(self, data: bytes) -> None:
        asyncio.run_coroutine_threadsafe(self.queue.put(data), self.loop)
        asyncio.run_coroutine_threadsafe(self._push(data), self.loop)
        asyncio.run_coroutine_threadsafe(self._traced_push(data), self.loop)
        asyncio.run_coroutine_threadsafe(self._push_later(data), self.loop)  # error: TRF001:9
        asyncio.run_coroutine_threadsafe(self._traced_wait(), self.loop)  # error: TRF001:9

    async def _push(self, data: bytes) -> None:
        await self.queue.put(data)

    @_traced
    async def _traced_push(self, data: bytes) -> None:
        await self.queue.put(data)

    async def _push_later(self, data: bytes) -> None:
        await asyncio.sleep(0.1)
        await self.queue.put(data)

    @_traced
    async def _traced_wait(self) -> None:
        await self.queue.join()


def no_loop_given(client: Any, loop: asyncio.AbstractEventLoop, args: Any) -> None:
    # without a loop the call raises TypeError: no future, no task (a real
    # package's bug, not a lost task); with one, given by name or unpacked, it is one
    asyncio.run_coroutine_threadsafe(client.disconnect())
    asyncio.run_coroutine_threadsafe(client.disconnect(), loop=loop)  # error: TRF001:5
    asyncio.run_coroutine_threadsafe(*args)  # error: TRF001:5
