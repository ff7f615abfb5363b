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
        asyncio.create_task(self._job())

    async def handle(self) -> None:
        task = asyncio.create_task(self._job())
        task.add_done_callback(print)

    async def _job(self) -> None:
        await asyncio.sleep(1)
