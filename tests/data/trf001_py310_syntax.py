"""A helper whose body ends in a ``match`` (Python 3.10+): a spawner when every
case returns a new task and one catches all; when a value may fall through, it
returns a task or None: reported only where a statement of its own drops it, not
where the handle is only looked at (tests/data/trf001_task_on_some_paths.py)."""
import asyncio


async def job() -> None:
    await asyncio.sleep(1)


def every_case(kind: int):
    match kind:
        case 1:
            return asyncio.create_task(job())
        case _:
            return asyncio.create_task(asyncio.sleep(1))


def some_cases(kind: int):
    match kind:
        case 1:
            return asyncio.create_task(job())
        case 2:
            return asyncio.create_task(asyncio.sleep(1))


def callers() -> None:
    every_case(1)  # error: TRF001:5
    some_cases(1)  # error: TRF001:5
    print(every_case(1))  # error: TRF001:11
    print(some_cases(1))
