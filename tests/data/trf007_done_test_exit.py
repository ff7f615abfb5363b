"""TRF007: ``if task in done: return await task`` after a wait of the task (and
others, or with a timeout), then a ``raise`` or ``return``: the exit is reached
only where the test failed, with the task still pending, and what the ``if``'s
body does to it does not happen there (aiok8s's watcher, which raises
``StopAsyncIteration`` with its queue's ``get()`` task pending: a miss of the
fortieth trial)."""
import asyncio
from typing import Any


class Watcher:
    def __init__(self, results: "asyncio.Queue[Any]") -> None:
        self._results = results
        self._stopped = asyncio.Event()
        self._stop_task = asyncio.ensure_future(self._stopped.wait())

    # ---- the task pending at the exit after the test: reported --------------------
    async def __anext__(self) -> Any:
        event = asyncio.ensure_future(self._results.get())  # error: TRF007:17
        while True:
            done, _ = await asyncio.wait([event, self._stop_task], return_when=asyncio.FIRST_COMPLETED)
            if event in done:
                return await event
            if self._stopped.is_set():
                raise StopAsyncIteration

    async def next_in(self, seconds: float) -> Any:  # (the timed wait's pending set: TRF005)
        event = asyncio.ensure_future(self._results.get())
        done, _ = await asyncio.wait([event], timeout=seconds)  # error: TRF005:25
        if event in done:
            return event.result()
        raise TimeoutError

    # ---- cancelled on the way out, or another's test: no finding ----------------
    async def next_cancelled(self) -> Any:
        event = asyncio.ensure_future(self._results.get())
        while True:
            done, _ = await asyncio.wait([event, self._stop_task], return_when=asyncio.FIRST_COMPLETED)
            if event in done:
                return await event
            if self._stopped.is_set():
                event.cancel()
                raise StopAsyncIteration

    async def next_until_stopped(self) -> Any:
        event = asyncio.ensure_future(self._results.get())
        done, _ = await asyncio.wait([event, self._stop_task], return_when=asyncio.FIRST_COMPLETED)
        if self._stop_task in done:
            event.cancel()
            raise StopAsyncIteration
        return await event


class Closed(Exception):
    pass


async def next_or_stop(results: "asyncio.Queue[Any]", stop: "asyncio.Task[Any]") -> Any:
    event = asyncio.ensure_future(results.get())
    while True:
        done, _ = await asyncio.wait([event, stop], return_when=asyncio.FIRST_COMPLETED)
        if event in done:
            item = await event
            if item is None:
                break  # (the raise below is reached from here too, with the task done)
            return item
    raise StopAsyncIteration


async def next_or_closed(results: "asyncio.Queue[Any]", stop: "asyncio.Task[Any]") -> Any:
    event = asyncio.ensure_future(results.get())
    try:
        done, _ = await asyncio.wait([event, stop], return_when=asyncio.FIRST_COMPLETED)
        if event in done:
            return event.result()
    except Closed:
        raise StopAsyncIteration  # (reached from the body's result(), with the task done)
    event.cancel()
    return None
