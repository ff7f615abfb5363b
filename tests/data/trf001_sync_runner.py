"""A function that is no coroutine makes tasks on a loop that is not running,
then holds them in ``asyncio.all_tasks(loop)`` while it runs the loop, in a
``while tasks:`` loop that takes a new snapshot each pass and that nothing else
leaves: until the loop runs, its queue holds each task, then the snapshot does
(telegrinder's ``run_event_loop()``, a false alarm of the seventeenth trial of
issue 32).  The twins run the loop before the snapshot, snapshot another loop,
leave the ``while`` loop early, or run it once."""
import asyncio


class Runner:
    def __init__(self, jobs):
        self.jobs = jobs
        self.loop = asyncio.new_event_loop()

    def run(self):
        while self.jobs:
            self.loop.create_task(self.jobs.pop(0))
        tasks = asyncio.all_tasks(self.loop)
        while tasks:
            done, _ = self.loop.run_until_complete(asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION))
            for task in done:
                task.result()
            tasks = asyncio.all_tasks(self.loop)

    def run_first(self, other):
        self.loop.create_task(self.jobs.pop(0))  # error: TRF001:9
        self.loop.run_until_complete(other())
        tasks = asyncio.all_tasks(self.loop)
        while tasks:
            self.loop.run_until_complete(asyncio.wait(tasks))
            tasks = asyncio.all_tasks(self.loop)

    def run_other_loop(self, loop):
        self.loop.create_task(self.jobs.pop(0))  # error: TRF001:9
        tasks = asyncio.all_tasks(loop)
        while tasks:
            loop.run_until_complete(asyncio.wait(tasks))
            tasks = asyncio.all_tasks(loop)

    def run_until_first(self):
        self.loop.create_task(self.jobs.pop(0))  # error: TRF001:9
        tasks = asyncio.all_tasks(self.loop)
        while tasks:
            done, _ = self.loop.run_until_complete(asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED))
            if done:
                break
            tasks = asyncio.all_tasks(self.loop)

    def run_once(self):
        self.loop.create_task(self.jobs.pop(0))  # error: TRF001:9
        tasks = asyncio.all_tasks(self.loop)
        self.loop.run_until_complete(asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED))
