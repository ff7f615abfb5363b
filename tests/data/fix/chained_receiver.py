"""Issue 17, item 1: spawns on a loop returned by a call (a chained receiver)."""
import asyncio
from typing import Optional


class Session:
    def __init__(self) -> None:
        self.restarts = 0
        self.name: Optional[str] = None

    async def restart(self) -> None:
        self.restarts += await asyncio.sleep(0, 1)

    def connection_lost(self) -> None:
        asyncio.get_running_loop().create_task(self.restart())

    def schedule(self) -> None:
        asyncio.get_event_loop().create_task(self.restart()).add_done_callback(print)


def start(session: Session) -> None:
    asyncio.get_running_loop().create_task(session.restart())
