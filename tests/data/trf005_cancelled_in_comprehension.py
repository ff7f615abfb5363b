"""``[task.cancel() for task in pending]`` as a statement cancels every pending task
of ``asyncio.wait()``, as ``for task in pending: task.cancel()`` does
(sphinx-autobuild's server, two false alarms of the twenty-third trial).  The twins
are reported: a comprehension that only looks at the tasks, one with a filter, and
a generator expression, which as a statement never runs."""
import asyncio


async def cancelled(self):
    tasks = (asyncio.create_task(self.watch()), asyncio.create_task(self.exit.wait()))
    done, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    [task.cancel() for task in pending]
    [task.result() for task in done]


async def cancelled_in_a_set(self):
    tasks = (asyncio.create_task(self.watch()), asyncio.create_task(self.exit.wait()))
    done, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    {task.cancel() for task in pending}


async def only_looked_at(self):
    tasks = (asyncio.create_task(self.watch()), asyncio.create_task(self.exit.wait()))
    done, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)  # error: TRF005:27
    [task.done() for task in pending]


async def filtered(self):
    tasks = (asyncio.create_task(self.watch()), asyncio.create_task(self.exit.wait()))
    done, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)  # error: TRF005:27
    [task.cancel() for task in pending if self.strict]


async def never_runs(self):
    tasks = (asyncio.create_task(self.watch()), asyncio.create_task(self.exit.wait()))
    done, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)  # error: TRF005:27
    (task.cancel() for task in pending)
