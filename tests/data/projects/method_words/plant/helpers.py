import asyncio

from plant.owner import Collector


def launch(c: Collector) -> "asyncio.Task[None]":
    return c.start()
