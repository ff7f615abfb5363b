"""Helpers of the project."""
import asyncio
from typing import Any


async def close_client(client: Any) -> None:
    await client.close()


def closing(client: Any) -> "asyncio.Future[None]":
    return asyncio.get_running_loop().create_future()


class Connection:
    async def terminate(self) -> None:
        await asyncio.sleep(0)

    def closed(self) -> "asyncio.Future[None]":
        return asyncio.get_running_loop().create_future()
