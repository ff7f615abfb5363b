"""A class whose start() drops its life-long loops (the shape of the real bug)."""
import asyncio
import logging

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
        asyncio.create_task(self._collect_results())  # the result loop
        asyncio.create_task(self._watch_ranks())
        asyncio.create_task(
            self._expire_mappings(),  # every 30 s
            name="expire",
        )

    async def _collect_results(self) -> None:
        await asyncio.sleep(1)

    async def _watch_ranks(self) -> None:
        await asyncio.sleep(1)

    async def _expire_mappings(self) -> None:
        await asyncio.sleep(30)
