"""Spawns around Python 3.14 syntax: ``except A, B:`` (PEP 758), template
strings (PEP 750) and create_task's keywords (``eager_start=``)."""
import asyncio


async def job() -> None:
    await asyncio.sleep(1)


async def template_argument(name: str) -> None:
    asyncio.create_task(job(), name=t"job {name}")  # error: TRF001:5
    print(t"started {asyncio.create_task(job())}")  # error: TRF001:22


async def template_keeps_its_values() -> object:
    template = t"{asyncio.create_task(job())}"
    return template


async def eager(loop: asyncio.AbstractEventLoop) -> None:
    asyncio.create_task(job(), eager_start=True)  # error: TRF001:5
    loop.create_task(job(), eager_start=False)  # error: TRF001:5
    kept = asyncio.create_task(job(), eager_start=True)
    await kept


async def handler_without_parentheses(arrival: "asyncio.Future[bytes]") -> None:
    helper = asyncio.create_task(job())
    try:
        await asyncio.wait_for(arrival, 1)  # error: TRF003:15
    except ValueError, TimeoutError:
        return
    await helper


async def handler_without_parentheses_cancels(arrival: "asyncio.Future[bytes]") -> None:
    helper = asyncio.create_task(job())
    try:
        await asyncio.wait_for(arrival, 1)
    except ValueError, TimeoutError:
        helper.cancel()
        return
    await helper
