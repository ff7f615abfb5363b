# flake8-taskref-args: --max-line-length 60
import asyncio


class Dispatcher:
    def __init__(self) -> None:
        self.ranks = 0

    def start(self) -> None:
        asyncio.create_task(self._collect_from_every_rank(1, 2))  # loop
        print(asyncio.create_task(self._watch_ranks()).get_name())
        watcher = asyncio.create_task(self._watch_ranks())
        watcher.add_done_callback(print)

    async def _collect_from_every_rank(self, a: int, b: int) -> None:
        await asyncio.sleep(a + b)

    async def _watch_ranks(self) -> None:
        await asyncio.sleep(1)
