"""Every shape that needs another module of the project to be seen."""
import asyncio
from collections import UserDict
from typing import Any, Awaitable, Callable, Dict

import app.util as util_module
from app import broken, start_background, util
from app._compat import timeout, wait_for
from app.bus import EventBus
from app.cycle_a import launch
from app.dynamic import Proxied, WithMeta
from app.util import in_background, log_on_fail, restart, restart_kept, sometimes, spawn_logged, twice
from app.workers import BaseWorker, Connection


class Dispatcher(BaseWorker):
    def __init__(self, worker: BaseWorker, bus: EventBus) -> None:
        super().__init__()
        self._worker = worker
        self._bus = bus

    async def start(self, watch: Callable[[], Awaitable[None]]) -> None:
        spawn_logged(watch(), name="watch")  # error: TRF001:9
        in_background(watch())  # error: TRF001:9
        start_background(watch())  # error: TRF001:9
        util.spawn_logged(watch())  # error: TRF001:9
        util_module.relay(watch())  # error: TRF001:9
        launch(watch())  # error: TRF001:9
        self._start_background(watch())  # error: TRF001:9
        self.io.create_task(watch())  # error: TRF001:9
        self._bus.dispatch("started")  # error: TRF001:9
        log_on_fail(asyncio.create_task(watch()))  # error: TRF001:21

    async def stop(self) -> None:
        await asyncio.shield(self._worker.cancel_group("all"))  # error: TRF004:15

    async def local_only(self, watch: Callable[[], Awaitable[None]]) -> None:
        task = spawn_logged(watch())  # error: TRF002:16
        log_on_fail(task)

    async def encode(self, work: Callable[[], Awaitable[bytes]], arrival: "asyncio.Future[bytes]") -> None:
        encoder = asyncio.create_task(work())
        async with timeout(5):  # error: TRF003:20
            await arrival
        await encoder

    async def encode_wait_for(self, work: Callable[[], Awaitable[bytes]], arrival: "asyncio.Future[bytes]") -> None:
        encoder = asyncio.create_task(work())
        await wait_for(arrival, 5)  # error: TRF003:15
        await encoder


async def close(conn: "Connection[Any]") -> None:
    await asyncio.shield(conn.close())  # error: TRF004:11


async def close_for(conns: "Dict[str, Connection[Any]]", key: str) -> None:
    # the receiver is a call's result, an item: its class is not known
    await asyncio.shield(conns.get(key).close())  # type: ignore[union-attr]
    await asyncio.shield(conns[key].close())


class Mixed(UserDict, BaseWorker):  # type: ignore[type-arg]
    """A base outside the project comes first: it may define anything."""

    def start(self, watch: Callable[[], Awaitable[None]]) -> None:
        self._start_background(watch())


async def awaited_helpers(watch: Callable[[], Awaitable[None]], now: bool) -> None:
    """What a coroutine function of another module returns, dropped by
    ``await`` as a statement; a helper that returns a task or None, dropped."""
    await util.refresh(watch(), now)  # error: TRF001:11
    await restart(watch())  # error: TRF001:11
    sometimes(watch(), now)  # error: TRF001:5
    task = await util.refresh(watch(), now)
    if task is not None:
        await task
    await restart_kept(watch())  # it keeps its task
    await util.restart_or_value(watch(), now)  # a task or another value: not known
    restart(watch())  # a coroutine never awaited: no task is made


async def not_known(
    watch: Callable[[], Awaitable[None]], now: bool, proxied: Proxied, meta: WithMeta
) -> None:
    """A name bound twice, a module that does not parse, methods hidden by
    __getattr__ or a metaclass: nothing is reported."""
    twice(watch())
    broken.spawn(watch())
    proxied.start(watch())
    meta.start(watch())


class Noter:
    """``spawn_logged`` runs its first argument as its task: a coroutine that
    never suspends cannot be lost, one that waits can."""

    async def _note(self) -> None:
        self.noted = True

    async def _wait(self) -> None:
        await asyncio.sleep(1)

    async def start(self) -> None:
        spawn_logged(self._note())
        spawn_logged(self._wait())  # error: TRF001:9


async def plain_or_coroutine(conn: "Connection[int]") -> None:
    """``ensure_future`` of a plain function's or method's call of another
    module (a future, returned unchanged) is not reported; of a coroutine
    function's or method's it is."""
    asyncio.ensure_future(util.future_of(1))
    asyncio.ensure_future(conn.closed())
    asyncio.ensure_future(util.settle())  # error: TRF001:5
    asyncio.ensure_future(conn.close())  # error: TRF001:5
    asyncio.ensure_future(util.spawn_logged(util.settle()))  # error: TRF001:5
