"""``x.get_loop()`` is asyncio's name for the loop of a future, a task, a server or
a runner, and the one a class of the project that hands out its loop takes: its
``create_task`` makes a task (viam-sdk's log handler, a miss of the twentieth
trial: ``task = self._worker.get_loop().create_task(...)`` with only a done
callback).  Each reported case has a silent twin."""
import asyncio


async def job():
    await asyncio.sleep(1)


def schedule(fut: "asyncio.Future[None]") -> None:
    fut.get_loop().create_task(job())  # error: TRF001:5


def schedule_kept(fut: "asyncio.Future[None]", tasks: "set[asyncio.Task[None]]") -> None:
    task = fut.get_loop().create_task(job())
    tasks.add(task)
    task.add_done_callback(tasks.discard)


class Handler:
    def __init__(self, worker):
        self._worker = worker
        self._tasks = set()

    async def emit(self):
        task = self._worker.get_loop().create_task(job())  # error: TRF002:16
        task.add_done_callback(lambda t: print(t.result()))

    async def emit_kept(self):
        task = self._worker.get_loop().create_task(job())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def emit_other(self, pool):
        # ``get_loop(name)`` takes an argument: not asyncio's getter
        task = pool.get_loop("io").create_task(job())
        task.add_done_callback(print)
