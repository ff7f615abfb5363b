"""Grammar coverage: import forms and aliases of the spawning functions."""
from __future__ import annotations

import asyncio as aio
import asyncio.tasks
from asyncio import create_task as spawn, ensure_future
from asyncio import *  # noqa: F401,F403
from asyncio.tasks import Task as T
from typing import Any

from . import sibling  # type: ignore  # noqa: F401
from .. import parent  # type: ignore  # noqa: F401


async def job(value: Any = None) -> Any:
    await aio.sleep(0)
    return value


async def uses() -> None:
    spawn(job())
    ensure_future(job())
    create_task(job())  # noqa: F405
    aio.create_task(job())
    asyncio.tasks.create_task(job())
    asyncio.tasks.ensure_future(job())
    T(job())
    gather(job(), job())  # noqa: F405


def local_imports() -> None:
    import asyncio as local_aio
    from asyncio import create_task as local_spawn
    local_spawn(job())
    local_aio.get_running_loop().create_task(job())
