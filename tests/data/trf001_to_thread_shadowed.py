"""A task that only runs asyncio's ``to_thread`` is held by its thread (silent,
``tests/data/trf004_shield.py``); not a ``to_thread`` the module defines again,
nor one reached through a parameter named ``asyncio`` (the review of the
thirty-eighth trial's changes)."""
import asyncio
from asyncio import to_thread


async def to_thread(fn):  # noqa: F811
    await asyncio.sleep(10)
    fn()


def work():
    pass


def module_redefined():
    asyncio.create_task(to_thread(work))  # error: TRF001:5


def parameter_named_asyncio(asyncio):
    asyncio.ensure_future(asyncio.to_thread(work))  # error: TRF001:5
