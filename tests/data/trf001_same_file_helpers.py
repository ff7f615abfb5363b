"""Same-file helpers (issue 20): what a function of this file does with a task
it is given, and whether it returns a new one, is read from its body.

A helper that only looks at the task (done callbacks, logging, done(), result())
keeps nothing: a task passed to it is lost.  A helper that keeps it (stores it,
returns it, adds it to a kept set, passes it on to something unknown) keeps it,
and an unknown or imported callee counts as keeping.  A function that returns a
new task nobody else keeps is a spawner, with no configuration.
"""
import asyncio
import logging
from typing import Any, Set

from elsewhere import detach_elsewhere  # type: ignore[import-not-found]

log = logging.getLogger(__name__)
background: Set["asyncio.Task[Any]"] = set()


async def job() -> None:
    await asyncio.sleep(1)


def log_when_done(task: "asyncio.Task[Any]") -> None:
    task.add_done_callback(lambda t: None)
    log.debug("watching %r", task)


def keep(task: "asyncio.Task[Any]") -> None:
    background.add(task)
    task.add_done_callback(background.discard)


def start(coro: Any) -> "asyncio.Task[Any]":
    return asyncio.create_task(coro)


def start_named(coro: Any) -> "asyncio.Task[Any]":
    task = asyncio.create_task(coro)
    task.set_name("worker")
    return task


def start_kept(coro: Any) -> "asyncio.Task[Any]":
    task = asyncio.create_task(coro)
    keep(task)
    return task


def cancel_it(task: "asyncio.Task[Any]") -> None:
    if not task.done():
        task.cancel()


class Iterator:
    def __init__(self) -> None:
        self._tasks: Set["asyncio.Task[Any]"] = set()

    def _log(self, task: "asyncio.Task[Any]") -> None:
        if not task.cancelled() and task.exception() is not None:
            log.error("closing failed: %s", task.exception())

    def _detach(self, task: "asyncio.Task[Any]") -> None:
        task.add_done_callback(self._log)

    def _detach_twice(self, task: "asyncio.Task[Any]") -> None:
        self._detach(task)

    def _keep(self, task: "asyncio.Task[Any]") -> None:
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _spawn(self, coro: Any) -> "asyncio.Task[Any]":
        return asyncio.create_task(coro)

    def _pass_through(self, fut: Any) -> "asyncio.Future[Any]":
        return asyncio.ensure_future(fut)

    @staticmethod
    def _watch(task: "asyncio.Task[Any]") -> None:
        print(task)

    def _overridden(self, task: "asyncio.Task[Any]") -> None:
        raise NotImplementedError

    async def _aclose(self, it: Any) -> None:
        await asyncio.sleep(0.01)

    # ---- lost: reported ------------------------------------------------------------
    def close(self, it: Any) -> None:
        self._detach(asyncio.ensure_future(self._aclose(it)))  # error: TRF001:22

    def close_through_two_helpers(self, it: Any) -> None:
        self._detach_twice(asyncio.ensure_future(self._aclose(it)))  # error: TRF001:28

    def close_through_a_local(self, it: Any) -> None:
        task = asyncio.ensure_future(self._aclose(it))  # error: TRF002:16
        self._detach(task)

    def close_by_keyword(self, it: Any) -> None:
        self._detach(task=asyncio.ensure_future(self._aclose(it)))  # error: TRF001:27

    def close_through_a_static_method(self, it: Any) -> None:
        self._watch(asyncio.ensure_future(self._aclose(it)))  # error: TRF001:21

    async def close_shielded(self, it: Any) -> None:
        task = asyncio.create_task(self._aclose(it))
        try:
            await asyncio.shield(task)  # error: TRF004:19
        except asyncio.CancelledError:
            self._detach(task)
            raise

    def spawned_by_a_method(self, it: Any) -> None:
        self._spawn(self._aclose(it))  # error: TRF001:9

    def spawned_and_bound(self, it: Any) -> None:
        task = self._spawn(self._aclose(it))  # error: TRF002:16
        task.add_done_callback(self._log)

    # ---- kept: silent ----------------------------------------------------------------
    def close_kept(self, it: Any) -> None:
        self._keep(asyncio.ensure_future(self._aclose(it)))

    def close_kept_through_a_local(self, it: Any) -> None:
        task = asyncio.ensure_future(self._aclose(it))
        self._keep(task)

    def close_kept_elsewhere(self, it: Any) -> None:
        detach_elsewhere(asyncio.ensure_future(self._aclose(it)))

    def close_unknown_method(self, it: Any) -> None:
        self._unknown(asyncio.ensure_future(self._aclose(it)))  # type: ignore[attr-defined]

    def close_overridable_stub(self, it: Any) -> None:
        self._overridden(asyncio.ensure_future(self._aclose(it)))

    def spawned_and_kept(self, it: Any) -> None:
        self._keep(self._spawn(self._aclose(it)))
        self._tasks.add(self._spawn(self._aclose(it)))

    async def spawned_and_awaited(self, it: Any) -> None:
        await self._spawn(self._aclose(it))

    def passed_through(self, fut: Any) -> None:
        self._pass_through(fut)

    async def close_shielded_and_kept(self, it: Any) -> None:
        task = asyncio.create_task(self._aclose(it))
        try:
            await asyncio.shield(task)
        except asyncio.CancelledError:
            self._keep(task)
            raise


# ---- module functions ----------------------------------------------------------------
def watched() -> None:
    log_when_done(asyncio.create_task(job()))  # error: TRF001:19


def started() -> None:
    start(job())  # error: TRF001:5
    start_named(job())  # error: TRF001:5


def started_and_kept() -> None:
    keep(asyncio.create_task(job()))
    keep(start(job()))
    start_kept(job())


async def cancelled_by_a_helper() -> None:
    task = asyncio.create_task(job())
    cancel_it(task)


def shadowed(start: Any) -> None:
    start(job())


def rebound_helper() -> None:
    twice(asyncio.create_task(job()))


def twice(task: "asyncio.Task[Any]") -> None:
    print(task)


def twice(task: "asyncio.Task[Any]") -> None:  # type: ignore[no-redef]  # noqa: F811
    background.add(task)


def stores_it(task: "asyncio.Task[Any]") -> "asyncio.Task[Any]":
    print(task)
    return task


def returned_by_the_helper() -> None:
    stores_it(asyncio.create_task(job()))


def captured(task: "asyncio.Task[Any]") -> None:
    task.add_done_callback(lambda _: background.discard(task))


def captured_by_a_callback() -> None:
    captured(asyncio.create_task(job()))


async def async_helper(task: "asyncio.Task[Any]") -> None:
    print(task)


async def passed_to_an_async_helper() -> None:
    await async_helper(asyncio.create_task(job()))
