"""Tasks gathered in a ``try`` whose handler cancels them, after an ``async with``
entry: reported only where the entry may suspend."""
import asyncio
from typing import Any, List

from gate import timers
from gate.timers import Connecting, Inherited, LeavesWaiting, OpTimeout, ReturnsItself, Stub, YieldsOnce


async def fetch(node: Any) -> Any:
    return await node.fetch()


async def quiet_entry(loop: Any, nodes: List[Any]) -> List[Any]:
    tasks = [loop.create_task(fetch(node)) for node in nodes]
    async with OpTimeout(1.0, loop):
        try:
            await asyncio.gather(*tasks)
        except Exception:
            for task in tasks:
                task.cancel()
            raise
    return [task.result() for task in tasks]


async def quiet_entry_dotted(loop: Any, nodes: List[Any]) -> List[Any]:
    tasks = [loop.create_task(fetch(node)) for node in nodes]
    async with timers.OpTimeout(1.0, loop):
        try:
            await asyncio.gather(*tasks)
        except Exception:
            for task in tasks:
                task.cancel()
            raise
    return [task.result() for task in tasks]


async def waiting_entry(loop: Any, nodes: List[Any]) -> List[Any]:
    tasks = [loop.create_task(fetch(node)) for node in nodes]  # error: TRF007:14
    async with Connecting():
        try:
            await asyncio.gather(*tasks)
        except Exception:
            for task in tasks:
                task.cancel()
            raise
    return [task.result() for task in tasks]


async def inherited_entry(loop: Any, nodes: List[Any]) -> List[Any]:
    tasks = [loop.create_task(fetch(node)) for node in nodes]  # error: TRF007:14
    async with Inherited(1.0, loop):
        try:
            await asyncio.gather(*tasks)
        except Exception:
            for task in tasks:
                task.cancel()
            raise
    return [task.result() for task in tasks]


async def stub_entry(loop: Any, nodes: List[Any]) -> List[Any]:
    tasks = [loop.create_task(fetch(node)) for node in nodes]  # error: TRF007:14
    async with Stub():
        try:
            await asyncio.gather(*tasks)
        except Exception:
            for task in tasks:
                task.cancel()
            raise
    return [task.result() for task in tasks]


async def shadowed_entry(loop: Any, nodes: List[Any], OpTimeout: Any) -> List[Any]:
    tasks = [loop.create_task(fetch(node)) for node in nodes]  # error: TRF007:14
    async with OpTimeout(1.0, loop):
        try:
            await asyncio.gather(*tasks)
        except Exception:
            for task in tasks:
                task.cancel()
            raise
    return [task.result() for task in tasks]


async def yields_once(loop: Any, nodes: List[Any]) -> None:
    tasks = [loop.create_task(fetch(node)) for node in nodes]  # error: TRF007:14
    async with YieldsOnce():
        try:
            await asyncio.gather(*tasks)
        except Exception:
            for task in tasks:
                task.cancel()
            raise


async def leaves_waiting(loop: Any, nodes: List[Any]) -> None:
    tasks = [loop.create_task(fetch(node)) for node in nodes]  # error: TRF007:14
    async with LeavesWaiting():
        pass
    try:
        await asyncio.gather(*tasks)
    except Exception:
        for task in tasks:
            task.cancel()
        raise


async def returns_itself(loop: Any, nodes: List[Any]) -> None:
    tasks = [loop.create_task(fetch(node)) for node in nodes]
    async with ReturnsItself():
        try:
            await asyncio.gather(*tasks)
        except Exception:
            for task in tasks:
                task.cancel()
            raise
