"""Helpers in folders and files the project excludes, named by imports
(absolute and relative): each call is seen, nothing in them is reported."""
from tools.helpers import spawn

from . import tasks_gen
from .vendored.fire import fire_and_forget


async def work() -> None:
    pass


async def main() -> None:
    spawn(work())  # error: TRF001:5
    fire_and_forget(work())  # error: TRF001:5
    tasks_gen.start(work())  # error: TRF001:5
    kept = spawn(work())
    await kept
