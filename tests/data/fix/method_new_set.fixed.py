"""A class whose start() drops its life-long loops (the shape of the real bug)."""
import asyncio
import logging

_background_tasks: set[asyncio.Task[object]] = set()

logger = logging.getLogger(__name__)


class Dispatcher:
    """Routes requests; three loops live as long as the process."""

    def __init__(self, ranks: int) -> None:
        """Set up the routing tables."""
        super().__init__()
        self.ranks = ranks
        # requests in flight, per rank
        self.pending: dict[int, int] = {}
        self._connect()

    def _connect(self) -> None:
        pass

    def start(self) -> None:
        logger.info("started")
        collect_results_task = asyncio.create_task(
            self._collect_results()
        )  # the result loop
        _background_tasks.add(collect_results_task)
        collect_results_task.add_done_callback(_background_tasks.discard)
        del collect_results_task
        watch_ranks_task = asyncio.create_task(self._watch_ranks())
        _background_tasks.add(watch_ranks_task)
        watch_ranks_task.add_done_callback(_background_tasks.discard)
        del watch_ranks_task
        expire_mappings_task = asyncio.create_task(
            self._expire_mappings(),  # every 30 s
            name="expire",
        )
        _background_tasks.add(expire_mappings_task)
        expire_mappings_task.add_done_callback(_background_tasks.discard)
        del expire_mappings_task

    async def _collect_results(self) -> None:
        await asyncio.sleep(1)

    async def _watch_ranks(self) -> None:
        await asyncio.sleep(1)

    async def _expire_mappings(self) -> None:
        await asyncio.sleep(30)
