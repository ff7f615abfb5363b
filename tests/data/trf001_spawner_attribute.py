"""A class that stores its loop's spawning method in an attribute of the same
name (``self.create_task = self.loop.create_task``): its calls, and a local bound
to it, make tasks (irc3's ``IrcBot.dispatch()``, a miss of the seventeenth trial
of issue 32).  The twins store it from a task group, or store it twice from two
attributes (``trf001_spawner_attribute_elsewhere.py``: through another receiver)."""
import asyncio


async def job():
    await asyncio.sleep(1)


class Bot:
    def __init__(self):
        self.loop = asyncio.get_event_loop()
        self.create_task = self.loop.create_task

    def dispatch(self):
        create_task = self.create_task
        create_task(job())  # error: TRF001:9

    def ping(self):
        self.create_task(job())  # error: TRF001:9

    def kept(self):
        self.pinger = self.create_task(job())


class Grouped:
    def __init__(self):
        self.group = asyncio.TaskGroup()
        self.create_task = self.group.create_task

    def ping(self):
        self.create_task(job())  # a task group keeps its tasks


class Twice:
    def __init__(self, other):
        self.loop = asyncio.get_event_loop()
        self.other = other
        self.create_task = self.loop.create_task

    def swap(self):
        self.create_task = self.other.create_task

    def ping(self):
        self.create_task(job())  # which receiver it is cannot be told
