import asyncio


class Collector:
    def start(self) -> "asyncio.Task[None]":
        return asyncio.create_task(self._run())

    async def _run(self) -> None:
        await asyncio.sleep(1)
