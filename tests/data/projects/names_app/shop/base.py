"""A base class in its own module."""
import asyncio


class BaseService:
    async def stop(self) -> None:
        await asyncio.sleep(0)

    def stopped(self) -> "asyncio.Future[None]":
        return asyncio.get_running_loop().create_future()
