"""noqa comments silence a finding on the reported line only."""
import asyncio


async def job() -> None:
    await asyncio.sleep(1)


async def silenced() -> None:
    asyncio.create_task(job())  # noqa: TRF001
    asyncio.create_task(job())  # noqa
    asyncio.create_task(  # noqa: TRF001
        job()
    )
    asyncio.create_task(job())  # noqa: TRF002  # error: TRF001:5
    task = asyncio.create_task(job())  # noqa: TRF002
