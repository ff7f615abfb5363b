"""A helper that returns a new task on some paths and ``None`` on the others (a
bare ``return``, ``return None``, its end, ``return []``, a new empty future) is a spawn
where a statement of its own drops its result (``task (on some paths)``: ``--fix`` leaves
it, as the set would be given ``None``; a loop executor's future is as harmless to drop),
and where a local holds it that flows nowhere and is not returned (TRF002: mmrelay's
``_fire_and_forget``); where the result is tested and kept, passed on to another name or
returned it is not followed (silent).  What ``await`` of a coroutine function of the file
returns is followed the same way, for ``await helper()`` as a statement.  The twins
return a task on every path, keep it, return another value, or are not awaited."""
import asyncio
import concurrent.futures
import contextlib
from typing import NoReturn


def assert_never(value: object) -> NoReturn:
    raise AssertionError(value)


async def job() -> None:
    await asyncio.sleep(1)


class Client:
    def __init__(self) -> None:
        self.started = False
        self.current = None
        self.keep = set()

    def falls_off_the_end(self):
        if not self.started:
            self.started = True
            return asyncio.create_task(job())

    def bare_return(self):
        if self.started:
            return
        self.started = True
        return asyncio.create_task(job())

    def in_a_with(self, lock):
        with lock:
            if self.started:
                return asyncio.create_task(job())

    def every_path(self, fast: bool):
        if fast:
            return asyncio.create_task(job())
        else:
            return asyncio.create_task(asyncio.sleep(2))

    def every_path_or_raise(self):
        if self.started:
            raise RuntimeError("started")
        return asyncio.create_task(job())

    def loop_returns(self):
        while True:
            if self.started:
                return asyncio.create_task(job())

    def asserts(self):
        if self.started:
            return asyncio.create_task(job())
        assert False, "not started"

    def never_returns(self, kind: int):
        if kind:
            return asyncio.create_task(job())
        else:
            assert_never(kind)

    def suppressed(self):
        with contextlib.suppress(RuntimeError):
            return asyncio.create_task(job())

    def schedule(self, target, *args):
        loop = asyncio.get_running_loop()
        if asyncio.iscoroutinefunction(target):
            return loop.create_task(target(*args))
        return loop.run_in_executor(None, target, *args)

    def or_a_value(self):
        if self.started:
            return asyncio.create_task(job())
        return 0

    def or_the_current(self):
        if self.started:
            return asyncio.create_task(job())
        return self.current

    def kept_or_none(self):
        if self.started:
            task = asyncio.create_task(job())
            self.keep.add(task)
            return task
        return None

    def handlers_or_empty(self, handlers):
        # an empty list on the other path: nothing a caller could lose, as None
        # (mautrix's dispatch_event, a miss of the fifteenth trial)
        if not handlers:
            return []
        return [asyncio.create_task(handler()) for handler in handlers]

    def or_a_new_future(self):
        if self.started:
            return asyncio.create_task(job())
        done = asyncio.get_running_loop().create_future()  # nothing runs for it
        done.set_result(None)
        return done

    def or_a_future_given(self, fut):
        if self.started:
            return asyncio.create_task(job())
        return fut

    def handlers_or_some(self, handlers):
        if not handlers:
            return [self.current]
        return [asyncio.create_task(handler()) for handler in handlers]

    def callers(self, lock) -> None:
        self.falls_off_the_end()  # error: TRF001:9
        self.bare_return()  # error: TRF001:9
        self.in_a_with(lock)  # error: TRF001:9
        self.every_path(True)  # error: TRF001:9
        self.every_path_or_raise()  # error: TRF001:9
        self.loop_returns()  # error: TRF001:9
        self.asserts()  # error: TRF001:9
        self.never_returns(1)  # error: TRF001:9
        self.suppressed()  # error: TRF001:9
        self.schedule(job)  # error: TRF001:9
        self.or_a_value()  # another value on the other path: not followed
        self.or_the_current()  # an attribute's value: not followed
        self.kept_or_none()  # kept where it is made
        self.handlers_or_empty([job])  # error: TRF001:9
        self.handlers_or_some([job])  # a list that holds another value: not followed
        self.or_a_new_future()  # error: TRF001:9
        self.or_a_future_given(None)  # a future it is given: not followed

    def bound(self) -> None:
        task = self.falls_off_the_end()  # bound, tested, passed on: not followed
        if task is not None:
            self.keep.add(task)
        print(self.bare_return())

    def bound_and_dropped(self) -> None:
        task = self.falls_off_the_end()  # error: TRF002:16
        if task is not None:
            task.add_done_callback(print)

    def bound_and_returned(self):
        task = self.falls_off_the_end()  # returned: its caller decides
        return task

    def bound_and_passed_on(self):
        task = self.falls_off_the_end()
        other = task  # another name takes it: not followed
        if other is not None:
            self.keep.add(other)

    # ``await helper()`` of the file's coroutine functions
    async def refresh(self, now: bool):
        await asyncio.sleep(0)
        if now:
            return asyncio.create_task(job())
        return None

    async def restart(self):
        await asyncio.sleep(0)
        return asyncio.create_task(job())

    async def restart_kept(self):
        task = asyncio.create_task(job())
        self.keep.add(task)
        return task

    async def restart_or_wait(self, now: bool):
        if now:
            return asyncio.create_task(job())
        return await job()

    async def restarts(self):
        yield asyncio.create_task(job())

    def plain_restart(self):
        return asyncio.create_task(job())

    async def awaiting(self, now: bool) -> None:
        await self.refresh(now)  # error: TRF001:15
        await self.restart()  # error: TRF001:15
        task = await self.refresh(now)
        if task is not None:
            await task
        await self.restart_kept()  # kept where it is made
        await self.restart_or_wait(now)  # another value on the other path: not followed
        await self.plain_restart()  # awaits the task itself
        self.restart()  # a coroutine, never awaited: no task is made
        async for task in self.restarts():
            await task
        await self.restart_finished()  # the task is done when it is returned
        await self.restart_guarded(True)  # it keeps its task when a parameter says so:
        await self.restart_guarded(False)  # not followed for ``await``

    async def restart_finished(self):
        task = asyncio.create_task(job())
        await asyncio.wait([task])
        return task

    async def restart_guarded(self, keep: bool):
        task = asyncio.create_task(job())
        if keep:
            self.keep.add(task)
        return task


async def module_level(now: bool) -> None:
    await spawn_later(now)  # error: TRF001:11
    task = await spawn_later(now)
    print(task)


async def spawn_later(now: bool):
    await asyncio.sleep(0)
    if now:
        return asyncio.create_task(job())


def submit(coro, loop=None):
    """mmrelay's ``_submit_coro``: a future of another thread's loop, a task, or
    a new future already done."""
    if loop is not None:
        return asyncio.run_coroutine_threadsafe(coro, loop)
    try:
        return asyncio.get_running_loop().create_task(coro)
    except RuntimeError:
        failed: "concurrent.futures.Future[None]" = concurrent.futures.Future()
        failed.set_result(None)
        return failed


def fire_and_forget(coro) -> None:
    task = submit(coro)  # error: TRF002:12
    task.add_done_callback(print)


def fire_and_keep(coro, keep) -> None:
    task = submit(coro)
    keep.add(task)
    task.add_done_callback(keep.discard)


def maybe(flag: bool):
    if flag:
        return asyncio.create_task(job())
    return None


async def refresh_or_wait(flag: bool) -> None:
    task = maybe(flag)  # where it is None nothing runs: the wait orphans nothing
    if task is None:
        await asyncio.wait_for(job(), 1)
        return
    await task


async def refresh_unless_closed(closed: bool) -> None:
    task = maybe(not closed)
    if closed:
        return  # where the helper gave None
    await task


def spawn_and_future():
    done = (fut := asyncio.create_task(job())).get_loop().create_future()  # ``fut``: no new future
    done.set_result(None)
    return fut


def calls_spawn_and_future() -> None:
    spawn_and_future()  # error: TRF001:5
