"""Grammar coverage: except* (3.11), TaskGroup and asyncio.timeout."""
import asyncio
from typing import Any


async def job(value: Any = None) -> Any:
    await asyncio.sleep(0)
    return value


async def groups() -> None:
    try:
        async with asyncio.TaskGroup() as tg:
            tg.create_task(job())
            asyncio.create_task(job())
    except* ValueError as eg:
        asyncio.create_task(job(eg))
    except* (TypeError, KeyError):
        handle = asyncio.create_task(job())
        await handle
    except* asyncio.TimeoutError:
        raise
    else:
        asyncio.ensure_future(job())
    finally:
        asyncio.create_task(job())


async def timeouts() -> None:
    task = asyncio.create_task(job())
    try:
        async with asyncio.timeout(1):
            await asyncio.sleep(2)
    except* TimeoutError:
        task.cancel()
    await task
    other = asyncio.create_task(job())
    async with asyncio.timeout_at(asyncio.get_running_loop().time() + 1) as cm:
        await other
    print(cm.expired())
    kept = asyncio.create_task(job())
    try:
        await asyncio.wait_for(job(), 1)
    except* TimeoutError:
        kept.cancel()
