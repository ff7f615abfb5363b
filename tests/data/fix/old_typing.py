import asyncio
from typing import (
    Dict,
    Optional,
)

REGISTRY: Dict[str, Optional[int]] = {}


async def beat() -> None:
    await asyncio.sleep(1)


def start() -> None:
    asyncio.create_task(beat())
