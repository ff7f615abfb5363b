"""A callback handed to a function of the file that calls it as a statement,
dropping what it returns (issue 32): the task the callback makes is lost.  The
callback is a lambda that returns a spawn, asyncio's spawner itself, or
``functools.partial`` of it.  Silent: a function that returns or keeps what the
callback returns, awaits it, or rebinds the parameter; a callback that makes no
task."""
import asyncio
import functools
from typing import Any, Callable, List

_results: List[Any] = []


async def job() -> None:
    await asyncio.sleep(1)


def run_hook(hook: Callable[..., Any], *args: Any) -> None:
    hook(*args)


def later(delay: float, *, callback: Callable[[], Any]) -> None:
    if delay:
        callback()


def returns_it(hook: Callable[[], Any]) -> Any:
    return hook()


def keeps_it(hook: Callable[[], Any]) -> None:
    _results.append(hook())


def rebinds(hook: Callable[[], Any]) -> None:
    hook = print
    hook()


async def awaits_it(hook: Callable[[], Any]) -> None:
    await hook()


class Bus:
    def emit(self, handler: Callable[[], Any]) -> None:
        handler()

    def publish(self) -> None:
        self.emit(lambda: asyncio.create_task(job()))  # error: TRF001:27


async def main(coro: Any) -> None:
    run_hook(lambda: asyncio.create_task(job()))  # error: TRF001:22
    run_hook(asyncio.create_task, coro)  # error: TRF001:14
    run_hook(functools.partial(asyncio.ensure_future, job()))  # error: TRF001:32
    later(1, callback=lambda: asyncio.create_task(job()))  # error: TRF001:31
    returns_it(lambda: asyncio.create_task(job()))
    keeps_it(lambda: asyncio.create_task(job()))
    rebinds(lambda: asyncio.create_task(job()))
    await awaits_it(lambda: asyncio.create_task(job()))
    run_hook(lambda: job())
    run_hook(print, coro)
    run_hook(lambda: asyncio.ensure_future(coro))
