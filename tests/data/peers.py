"""Shapes reported by Ruff's RUF006 and flake8-async's ASYNC300 (re-written here),
and shapes neither reports.  Every one of them must be ours too."""
import asyncio
from typing import Any


async def work(*args: Any) -> None:
    await asyncio.sleep(0.01)


# ---- what RUF006 reports ---------------------------------------------------
def ruff_bare_statements() -> None:
    asyncio.create_task(work())  # error: TRF001:5
    asyncio.ensure_future(work())  # error: TRF001:5


def ruff_unused_binding() -> None:
    pending = asyncio.create_task(work())  # error: TRF002:15


def ruff_running_loop_binding() -> None:
    running = asyncio.get_running_loop()
    fresh: "asyncio.Task[None]" = running.create_task(work())  # error: TRF002:35
    running.create_task(work())  # error: TRF001:5


def ruff_new_event_loop() -> None:
    private = asyncio.new_event_loop()
    private.create_task(work())  # error: TRF001:5


# ---- what ASYNC300 reports ---------------------------------------------------
async def async300_shapes(items: Any) -> None:
    asyncio.create_task(*items)  # error: TRF001:5
    [asyncio.create_task(work())]  # error: TRF001:6
    (asyncio.create_task(work()) for _ in range(2))  # error: TRF001:6
    flag = 1 if asyncio.create_task(work()) else 2  # error: TRF001:17
    lazy = (n for n in range(2) if asyncio.create_task(work()))  # error: TRF001:36
    with asyncio.create_task(work()) as handle:  # type: ignore[attr-defined]  # error: TRF001:10
        print(handle)
    print(flag, lazy)


# ---- what neither reports ----------------------------------------------------
class Registry:
    def __init__(self) -> None:
        self._loop = asyncio.new_event_loop()

    def run(self) -> None:
        self._loop.create_task(work())  # error: TRF001:9


async def local_only_list() -> None:
    batch = [asyncio.create_task(work(n)) for n in range(3)]  # error: TRF002:14
    print(len(batch))


async def encode_and_wait(arrival: "asyncio.Future[bytes]") -> None:
    encoder = asyncio.create_task(work())
    try:
        await asyncio.wait_for(arrival, timeout=1)  # error: TRF003:15
    except asyncio.TimeoutError:
        return
    await encoder


async def shielded() -> None:
    await asyncio.shield(work())  # error: TRF004:11


# ---- what both treat as safe, and so do we -----------------------------------
async def safe(ctx: Any, clients: Any, tasks: Any, holder: Any) -> None:
    ctx.task = asyncio.create_task(work())
    tasks.append(asyncio.create_task(work()))
    holder(asyncio.create_task(work()))
    kept = asyncio.create_task(work())
    await kept
    store = set()
    store |= {asyncio.create_task(work())}
    await asyncio.gather(*store)

    def returner() -> "asyncio.Task[None]":
        return asyncio.create_task(work())

    factory = lambda: asyncio.create_task(work())  # noqa: E731
    print(returner, factory, asyncio.create_task)
