"""A helper that returns a new task on some paths only is no spawner, whatever
its other paths return: ``None`` too (a bare ``return``, its end), which
``--fix`` would have kept in a set and called ``add_done_callback`` on.  The
twin returns a task on every path."""
import asyncio
import contextlib
from typing import NoReturn


def assert_never(value: object) -> NoReturn:
    raise AssertionError(value)


async def job() -> None:
    await asyncio.sleep(1)


class Client:
    def __init__(self) -> None:
        self.started = False

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

    def callers(self, lock) -> None:
        self.falls_off_the_end()
        self.bare_return()
        self.in_a_with(lock)
        self.every_path(True)  # error: TRF001:9
        self.every_path_or_raise()  # error: TRF001:9
        self.loop_returns()  # error: TRF001:9
        self.asserts()  # error: TRF001:9
        self.never_returns(1)  # error: TRF001:9
        self.suppressed()  # may be None: no spawner
