import asyncio
from typing import Set


class Server:
    def __init__(self) -> None:
        self.job_tasks: Set["asyncio.Task[object]"] = set()

    def submit(self) -> None:
        job = asyncio.create_task(self._job())
        self.job_tasks.add(job)
        job.add_done_callback(self.job_tasks.discard)

    def restart(self) -> None:
        job_task = asyncio.create_task(self._job())
        self.job_tasks.add(job_task)
        job_task.add_done_callback(self.job_tasks.discard)
        del job_task

    async def handle(self) -> None:
        task = asyncio.create_task(self._job())
        self.job_tasks.add(task)
        task.add_done_callback(self.job_tasks.discard)
        task.add_done_callback(print)

    async def _job(self) -> None:
        await asyncio.sleep(1)
