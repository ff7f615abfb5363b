import asyncio

from pool.utils import TaskPool, ensure, ensure_later, ensure_or_none


async def quick() -> None:
    print("never waits")


class App:
    def __init__(self) -> None:
        self.task_pool = TaskPool()

    async def setup(self, task: "asyncio.Task[None]") -> None:
        self.task_pool.spawn(self.check_loop())  # error: TRF001:9
        ensure(self.check_loop())  # error: TRF001:9
        self.task_pool.spawn(task)
        ensure(quick())
        loop = asyncio.get_running_loop()
        ensure(loop.run_in_executor(None, print))
        ensure_or_none(task)  # (a task, or None: returned unchanged)
        await ensure_later(task)

    async def check_loop(self) -> None:
        while True:
            await asyncio.sleep(1)
