"""Grammar coverage: nested lambdas, and lambdas that spawn (the closest thing
to an "async lambda": a lambda returning a coroutine or a task)."""
import asyncio
from typing import Any, Callable


async def job(value: Any = None) -> Any:
    await asyncio.sleep(0)
    return value


spawn: Callable[[], Any] = lambda: asyncio.create_task(job())
coro_factory = lambda x: job(x)  # noqa: E731
curried = lambda a: lambda b: lambda c: asyncio.create_task(job(a + b + c))  # noqa: E731
defaulted = lambda t=asyncio.ensure_future(job()): t  # noqa: E731
starred = lambda *a, k=None, **kw: asyncio.gather(*(job(x) for x in a))  # noqa: E731


async def use_lambdas(loop: asyncio.AbstractEventLoop) -> None:
    loop.call_soon(lambda: asyncio.create_task(job()))
    loop.call_soon_threadsafe(lambda: loop.create_task(coro_factory(1)))
    loop.call_later(0.1, lambda: (lambda: asyncio.ensure_future(job()))())
    task = asyncio.create_task(job())
    task.add_done_callback(lambda t: asyncio.create_task(job(t)))
    (lambda: asyncio.create_task(job()))()
    handle = (lambda q: q)(asyncio.create_task(job()))
    await handle
    await asyncio.create_task(coro_factory(2))
    await curried(1)(2)(3)
    sort_key = sorted([3, 1], key=lambda v: asyncio.create_task(job(v)).get_name())
    print(sort_key, spawn, defaulted, starred)
    loop.add_signal_handler(15, lambda: asyncio.ensure_future(job()))
