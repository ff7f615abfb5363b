"""TRF001: a loop chosen between a given one and asyncio's (``loop or
asyncio.get_running_loop()``, ``loop if loop is not None else
get_running_loop()``) is a loop, and so is what a function of the module
annotated to return one returns (asocksimap's IMAP client and its
``get_running_loop()`` shim, a miss of the fortieth trial's sweep).  A choice
with anything else in it is not known to be one."""
import asyncio
from typing import Any, Callable, Optional


async def connect() -> None:
    await asyncio.sleep(1)


def running_loop() -> asyncio.AbstractEventLoop:
    return asyncio.get_running_loop()


def anything() -> Any:
    return asyncio.get_running_loop()


def quoted_loop() -> "Optional[asyncio.AbstractEventLoop]":
    return asyncio.get_running_loop()


def loop_maker() -> Callable[[], asyncio.AbstractEventLoop]:
    return asyncio.get_running_loop


# ---- a loop either way: reported --------------------------------------------------
def start(loop: Optional[asyncio.AbstractEventLoop] = None) -> None:
    running = loop or asyncio.get_running_loop()
    running.create_task(connect())  # error: TRF001:5


def start_checked(loop: asyncio.AbstractEventLoop) -> None:
    running = loop if loop is not None else asyncio.get_running_loop()
    running.create_task(connect())  # error: TRF001:5


def start_shim(loop: Optional[asyncio.AbstractEventLoop] = None) -> None:
    running = loop if loop is not None else running_loop()
    running.create_task(connect())  # error: TRF001:5
    running_loop().create_task(connect())  # error: TRF001:5
    quoted_loop().create_task(connect())  # error: TRF001:5


# ---- something else may be chosen: no finding ------------------------------------
def start_unannotated() -> None:
    anything().create_task(connect())
    loop_maker()().create_task(connect())


def start_shadowed(running_loop: Any) -> None:
    running_loop().create_task(connect())

def start_other(loop: asyncio.AbstractEventLoop, group: Any) -> None:
    runner = loop if group is None else group
    runner.create_task(connect())


def start_and(loop: asyncio.AbstractEventLoop, ready: bool) -> None:
    runner = ready and loop
    runner.create_task(connect())  # (False has no create_task: a bug, not a dropped task)
