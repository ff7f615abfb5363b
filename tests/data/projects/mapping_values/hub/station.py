import asyncio


class Station:
    def __init__(self) -> None:
        self.data = ""

    async def received(self, data: str) -> None:  # never waits: its task runs to its end at once
        self.data = data

    async def waits(self, data: str) -> None:
        await asyncio.sleep(1)
        self.data = data


class Runner:
    def start(self) -> "asyncio.Task[None]":
        return asyncio.create_task(self.run())

    async def run(self) -> None:
        await asyncio.sleep(1)
