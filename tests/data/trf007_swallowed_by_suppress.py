"""TRF007: ``fut.result(timeout)`` of a ``run_coroutine_threadsafe`` future in a
``with contextlib.suppress(Exception):`` block, which swallows the timeout as
``except Exception: pass`` does (``trf007_swallowed_timeout.py``): the frame ends
with the task running and unreferenced (edgevox's sends from worker threads, misses
of the forty-first trial).  The twins cancel it after the block, suppress what is no
timeout, or wait in a loop."""
import asyncio
import contextlib
from typing import Any


async def send(ws: Any, payload: Any) -> None:
    await ws.send_json(payload)


# ---- the timeout swallowed, the future dropped: reported ------------------------
def forward(ws: Any, payload: Any, loop: asyncio.AbstractEventLoop) -> None:
    fut = asyncio.run_coroutine_threadsafe(send(ws, payload), loop)  # error: TRF007:11
    with contextlib.suppress(Exception):
        fut.result(timeout=1.0)


def forward_timeouts(ws: Any, payload: Any, loop: asyncio.AbstractEventLoop) -> None:
    fut = asyncio.run_coroutine_threadsafe(send(ws, payload), loop)  # error: TRF007:11
    with contextlib.suppress(TimeoutError, ConnectionError):
        fut.result(5)


# ---- cancelled after it, or no timeout swallowed: no TRF007 ----------------------
def forward_cancelled(ws: Any, payload: Any, loop: asyncio.AbstractEventLoop) -> None:
    fut = asyncio.run_coroutine_threadsafe(send(ws, payload), loop)
    with contextlib.suppress(Exception):
        fut.result(timeout=1.0)
    fut.cancel()


def forward_until_sent(ws: Any, payload: Any, loop: asyncio.AbstractEventLoop) -> None:
    fut = asyncio.run_coroutine_threadsafe(send(ws, payload), loop)
    while not fut.done():
        with contextlib.suppress(Exception):
            fut.result(timeout=1.0)
