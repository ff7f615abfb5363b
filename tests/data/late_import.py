"""Functions run after the module is executed: an import below them counts."""


def start() -> None:
    asyncio.create_task(job())  # error: TRF001:5


async def job() -> None:
    pass

import asyncio  # noqa: E402
