"""asyncio through the project's loaders module (``shop/loaders.py``): the name
stands for asyncio in this file, for every question (``get_running_loop()`` too)."""
from ..loaders import aio, anything, asyncio, spawn


async def job() -> None:
    await asyncio.sleep(1)


async def start() -> None:
    asyncio.create_task(job())  # error: TRF001:5
    asyncio.ensure_future(job())  # error: TRF001:5
    asyncio.get_running_loop().create_task(job())  # error: TRF001:5
    kept = asyncio.create_task(job())
    await kept
    # a fallback of another exception too: bound twice, so unknown
    aio.create_task(job())
    anything.create_task(job())
    # a def in the handler is a working alternative to the import: not known
    spawn(job())


async def local_import() -> None:
    from ..loaders import asyncio as aio_in_function

    aio_in_function.get_running_loop().create_task(job())  # error: TRF001:5


async def from_outside() -> None:
    # asyncio re-exported by a package outside the project: not looked at
    from syncer_outside_the_project import asyncio as outside  # type: ignore[import-not-found]

    outside.get_running_loop().create_task(job())


async def through_a_shim() -> None:
    from ..shims import asyncio as shimmed

    shimmed.ensure_future(job())
