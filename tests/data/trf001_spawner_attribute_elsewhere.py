"""An attribute named as a loop's spawning method, stored through a receiver
whose class cannot be told (``bot.create_task = ...``): no class's attribute of
that name is taken to be its loop's method (``trf001_spawner_attribute.py``)."""
import asyncio


async def job():
    await asyncio.sleep(1)


class Bot:
    def __init__(self):
        self.loop = asyncio.get_event_loop()
        self.create_task = self.loop.create_task

    def ping(self):
        self.create_task(job())  # it may be any callable now


def wire(bot, spawn):
    bot.create_task = spawn
