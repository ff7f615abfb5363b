"""Grammar coverage: match statements, every pattern kind, spawns everywhere."""
import asyncio
from dataclasses import dataclass
from typing import Any


async def job(value: Any = None) -> Any:
    await asyncio.sleep(0)
    return value


@dataclass
class Point:
    x: int
    y: int


async def dispatch(command: Any, tasks: "set[asyncio.Task[Any]]") -> Any:
    match asyncio.create_task(job(command)):
        case task:
            await task
    match command:
        case None | True | 1 | -1.5 | "start" | b"raw" | 1 + 2j:
            asyncio.create_task(job())
        case Point(x=0, y=yy) if asyncio.create_task(job(yy)).done():
            asyncio.ensure_future(job(yy))
        case Point(0, 0) | Point(x=1):
            task = asyncio.create_task(job())
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        case [first, *rest] if (kept := asyncio.create_task(job(first))):
            await kept
            print(rest)
        case [int() | float() as number, str(name), _]:
            asyncio.create_task(job(number, name))
        case {"type": "spawn", "args": [*args], **others}:
            handle = asyncio.create_task(job(*args, **others))
            return handle
        case (asyncio.Task() as running,):
            running.cancel()
        case str() | bytes():
            match command:
                case "nested":
                    asyncio.create_task(job())
                case _:
                    pass
        case {**everything}:
            print(everything)
        case _:
            asyncio.ensure_future(job())
    match = asyncio.create_task(job())  # soft keywords stay names
    case = [match]
    await asyncio.gather(*case)
    return None
