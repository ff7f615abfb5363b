# flake8-taskref-args: --max-line-length 60
import asyncio

_background_tasks: "set[asyncio.Task[object]]" = set()


class Dispatcher:
    def __init__(self) -> None:
        self.ranks = 0

    def start(self) -> None:
        collect_from_every_rank_task = asyncio.create_task(
            self._collect_from_every_rank(1, 2)
        )  # loop
        _background_tasks.add(collect_from_every_rank_task)
        collect_from_every_rank_task.add_done_callback(
            _background_tasks.discard
        )
        del collect_from_every_rank_task
        watch_ranks_task = asyncio.create_task(
            self._watch_ranks()
        )
        _background_tasks.add(watch_ranks_task)
        watch_ranks_task.add_done_callback(
            _background_tasks.discard
        )
        print(watch_ranks_task.get_name())
        del watch_ranks_task
        watcher = asyncio.create_task(self._watch_ranks())
        _background_tasks.add(watcher)
        watcher.add_done_callback(_background_tasks.discard)
        watcher.add_done_callback(print)

    async def _collect_from_every_rank(self, a: int, b: int) -> None:
        await asyncio.sleep(a + b)

    async def _watch_ranks(self) -> None:
        await asyncio.sleep(1)
