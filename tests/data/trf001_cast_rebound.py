"""``cast`` imported from typing, then bound again by the module: what it is
is not known (it keeps what it is given here), so it is no cast.  The same for
asyncio's spawner's name bound again by a function (a parameter)."""
import asyncio
from asyncio import create_task
from typing import cast

KEEP = set()


async def work():
    await asyncio.sleep(1)


def cast(kind, task):  # noqa: F811
    KEEP.add(task)
    task.add_done_callback(KEEP.discard)


def start():
    cast(asyncio.Task, asyncio.create_task(work()))


def start_typed():
    asyncio.create_task(work())  # error: TRF001:5


def spawner_given(create_task):
    create_task(work())  # a parameter named as asyncio's spawner: what it does is not known


def spawner_imported():
    create_task(work())  # error: TRF001:5
