import asyncio
from typing import Set


class Server:
    def __init__(self) -> None:
        self.jobs: Set["asyncio.Task[None]"] = set()

    def submit(self) -> None:
        job = asyncio.create_task(self._job())
        self.jobs.add(job)
        job.add_done_callback(self.jobs.discard)

    def restart(self) -> None:
        job_task = asyncio.create_task(self._job())
        self.jobs.add(job_task)
        job_task.add_done_callback(self.jobs.discard)

    async def handle(self) -> None:
        task = asyncio.create_task(self._job())
        self.jobs.add(task)
        task.add_done_callback(self.jobs.discard)
        task.add_done_callback(print)

    async def _job(self) -> None:
        await asyncio.sleep(1)
