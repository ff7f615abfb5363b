"""A function of this file handed to the other callback APIs that drop what the
callback returns (issue 32, as ``call_soon`` and the like in
trf001_later_callbacks.py): ``loop.add_reader(fd, helper, *args)``,
``add_writer`` and ``add_signal_handler`` call ``helper(*args)`` (each time the
file is ready, each time the signal comes) through a ``Handle``, which keeps no
result; ``fut.add_done_callback(helper)`` calls ``helper(fut)`` and drops what
it returns.  A new task the function returns, nobody keeping it, is lost.
Silent twins: a function that keeps its task, one that returns none, a
coroutine function (its call makes a coroutine, no task), a name not of the
file."""
import asyncio
import signal
import socket
from typing import Any, Set

_background: Set["asyncio.Task[Any]"] = set()


async def job() -> None:
    await asyncio.sleep(1)


def restart(_fut: "asyncio.Future[Any]") -> "asyncio.Task[None]":
    return asyncio.create_task(job())


def restart_kept(_fut: "asyncio.Future[Any]") -> "asyncio.Task[None]":
    task = asyncio.create_task(job())
    _background.add(task)
    task.add_done_callback(_background.discard)
    return task


def log_done(fut: "asyncio.Future[Any]") -> None:
    print(fut)


class Reader:
    def __init__(self, loop: asyncio.AbstractEventLoop, sock: socket.socket) -> None:
        self.loop = loop
        self.sock = sock
        self.tasks: Set["asyncio.Task[Any]"] = set()

    def _on_ready(self) -> "asyncio.Task[None]":
        return self.loop.create_task(job())

    def _on_ready_kept(self) -> "asyncio.Task[None]":
        task = self.loop.create_task(job())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    def _on_signal(self, signum: int) -> "asyncio.Task[None]":
        return self.loop.create_task(job())

    async def _on_signal_async(self, signum: int) -> None:
        await asyncio.sleep(signum)

    def _restart(self, _fut: "asyncio.Future[Any]") -> "asyncio.Task[None]":
        return self.loop.create_task(job())

    def _restart_kept(self, _fut: "asyncio.Future[Any]") -> "asyncio.Task[None]":
        return self._on_ready_kept()

    async def run(self) -> None:
        task = self.loop.create_task(job())
        task.add_done_callback(self._restart)  # error: TRF001:32
        task.add_done_callback(self._restart_kept)
        task.add_done_callback(self.tasks.discard)
        self.tasks.add(task)

    def watch(self) -> None:
        self.loop.add_reader(self.sock, self._on_ready)  # error: TRF001:41
        self.loop.add_writer(self.sock, self._on_ready)  # error: TRF001:41
        self.loop.add_signal_handler(signal.SIGTERM, self._on_signal, signal.SIGTERM)  # error: TRF001:54
        self.loop.add_reader(self.sock, self._on_ready_kept)
        self.loop.add_writer(self.sock, self._on_ready_kept)
        self.loop.add_signal_handler(signal.SIGHUP, self._on_signal_async, signal.SIGHUP)
        self.loop.add_signal_handler(signal.SIGINT, print, signal.SIGINT)


async def main() -> None:
    task = asyncio.create_task(job())
    task.add_done_callback(restart)  # error: TRF001:28
    task.add_done_callback(restart_kept)
    task.add_done_callback(log_done)
    await task
