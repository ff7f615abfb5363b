#!/usr/bin/env python3
"""Functions, nested functions, static methods and a class without __init__."""
from __future__ import annotations

import asyncio as aio
from asyncio import ensure_future


async def tick() -> None:
    await aio.sleep(1)


async def main() -> None:
    aio.create_task(tick())
    ensure_future(tick())
    aio.Task(tick())

    def inner() -> None:
        aio.create_task(tick())

    inner()


def sync_starter(loop: aio.AbstractEventLoop) -> None:
    loop.create_task(tick())


class NoInit:
    def go(self) -> None:
        aio.create_task(tick())

    @staticmethod
    def helper() -> None:
        aio.create_task(tick())
