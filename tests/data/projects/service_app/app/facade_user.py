"""Calls of the helpers through the facade that re-exports them: silent.  The
helper's summary, which this module sees, is made from its own module's text,
which cannot say what ``facade.asyncio`` is (docs/rules/TRF001.md, known problems)."""
from typing import Any, Set

import app.facade as facade


async def work() -> None:
    await facade.asyncio.sleep(1)


def go() -> None:
    facade.submit(work())  # (its own module reports what it can: submitting.py)


def go_kept(keep: Set[Any]) -> None:
    task = facade.submit(work())
    keep.add(task)
    task.add_done_callback(keep.discard)


def go_fire(keep: Set[Any]) -> None:
    facade.fire_kept(work(), keep)


def through_the_shims() -> None:
    import app.compat.asyncio
    import app.facade_shim as shim

    app.compat.asyncio.create_task(work())  # the project's own asyncio module: it keeps the task
    shim.asyncio.create_task(work())  # a facade whose asyncio is that module
