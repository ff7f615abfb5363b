"""``asyncio.ensure_future(name)`` of a name whose written type says it holds a
coroutine (a parameter ``coroutine: Coroutine[Any, Any, Any]``, also in a string,
``Optional[...]``, ``collections.abc.Coroutine``): it makes a new task, as of a
coroutine bound to a local (pydoll's ``schedule(loop, coroutine)``, a miss of the
twenty-fourth trial; its four callers pass ``waiter()`` and ``guard()``
coroutines).  The twins: an ``Awaitable`` (a future is one), a union with a
future, a name bound again or declared ``nonlocal`` in a nested function, a
written type of another name, and a spawn under an ``if`` that asks what the name
holds (``asyncio.isfuture(coro)``, the ``else`` of ``iscoroutine(coro)``): a
fresh-eyes review's false alarms."""
import asyncio
import collections.abc
import typing
from typing import Any, Awaitable, Coroutine, Optional


def schedule(loop: asyncio.AbstractEventLoop, coroutine: Coroutine[Any, Any, Any]) -> None:
    if loop is asyncio.get_running_loop():
        asyncio.ensure_future(coroutine)  # error: TRF001:9
    else:
        asyncio.run_coroutine_threadsafe(coroutine, loop)  # error: TRF001:9


def in_a_string(coroutine: "Coroutine[Any, Any, None]") -> None:
    asyncio.ensure_future(coroutine)  # error: TRF001:5


def of_collections(coroutine: "collections.abc.Coroutine[Any, Any, None]") -> None:
    asyncio.ensure_future(coroutine)  # error: TRF001:5


def optional(coroutine: Optional[typing.Coroutine[Any, Any, None]]) -> None:
    asyncio.ensure_future(coroutine)  # error: TRF001:5


def kept(coroutine: Coroutine[Any, Any, None]) -> "asyncio.Future[None]":
    return asyncio.ensure_future(coroutine)


def awaitable(aw: Awaitable[None]) -> None:
    asyncio.ensure_future(aw)


def union(coroutine: "Coroutine[Any, Any, None] | asyncio.Future[None]") -> None:
    asyncio.ensure_future(coroutine)


def bound_again(coroutine: Coroutine[Any, Any, None]) -> None:
    coroutine = _wrap(coroutine)
    asyncio.ensure_future(coroutine)


def other_name(coroutine: Coroutine[Any, Any, None], fut: Any) -> None:
    asyncio.ensure_future(fut)
    coroutine.close()


def tested_future(coro: Coroutine[Any, Any, None]) -> None:
    if asyncio.isfuture(coro):
        asyncio.ensure_future(coro)


def tested_else(coro: Coroutine[Any, Any, None]) -> None:
    if asyncio.iscoroutine(coro):
        coro.close()
    elif coro is not None:
        asyncio.ensure_future(coro)


def tested_not(coro: Coroutine[Any, Any, None]) -> None:
    if not isinstance(coro, asyncio.Future) or coro.done():
        return
    asyncio.ensure_future(coro)  # error: TRF001:5


def tested_coroutine(coro: Coroutine[Any, Any, None]) -> None:
    if asyncio.iscoroutine(coro):
        asyncio.ensure_future(coro)  # error: TRF001:9


def swapped(coro: Coroutine[Any, Any, None], fut: "asyncio.Future[None]") -> None:
    def swap() -> None:
        nonlocal coro
        coro.close()
        coro = fut  # type: ignore[assignment]

    swap()
    asyncio.ensure_future(coro)


def _wrap(c: Any) -> Any:
    return c
