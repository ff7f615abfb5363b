import asyncio

_background_tasks: "set[object]" = set()


async def job() -> int:
    await asyncio.sleep(1)
    return 1


def report(future: "asyncio.Future[int]") -> None:
    print(future.result())


async def main() -> None:
    # report when done
    job_task = asyncio.ensure_future(job())
    _background_tasks.add(job_task)
    job_task.add_done_callback(_background_tasks.discard)
    job_task.add_done_callback(report)  # a comment
    del job_task
    job_task_1 = asyncio.create_task(job())
    _background_tasks.add(job_task_1)
    job_task_1.add_done_callback(_background_tasks.discard)
    print(job_task_1)
    del job_task_1
    job_task_2 = asyncio.create_task(job())
    _background_tasks.add(job_task_2)
    job_task_2.add_done_callback(_background_tasks.discard)
    print("started", 1, job_task_2.get_name(), flush=True)
    del job_task_2

