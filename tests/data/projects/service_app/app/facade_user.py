"""Calls of the helpers through the facade that re-exports them."""
from typing import Any, Set

import app.facade as facade


async def work() -> None:
    await facade.asyncio.sleep(1)


def go() -> None:
    facade.submit(work())  # error: TRF001:5


def go_kept(keep: Set[Any]) -> None:
    task = facade.submit(work())
    keep.add(task)
    task.add_done_callback(keep.discard)


def go_fire(keep: Set[Any]) -> None:
    facade.fire_kept(work(), keep)
