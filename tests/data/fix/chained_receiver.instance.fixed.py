"""Issue 17, item 1: spawns on a loop returned by a call (a chained receiver)."""
import asyncio
from typing import Optional

_background_tasks: "set[asyncio.Task[object]]" = set()


class Session:
    def __init__(self) -> None:
        self.__background_tasks: set[asyncio.Task[object]] = set()
        self.restarts = 0
        self.name: Optional[str] = None

    async def restart(self) -> None:
        self.restarts += await asyncio.sleep(0, 1)

    def connection_lost(self) -> None:
        restart_task = asyncio.get_running_loop().create_task(self.restart())
        self.__background_tasks.add(restart_task)
        restart_task.add_done_callback(self.__background_tasks.discard)
        del restart_task

    def schedule(self) -> None:
        restart_task = asyncio.get_event_loop().create_task(self.restart())
        self.__background_tasks.add(restart_task)
        restart_task.add_done_callback(self.__background_tasks.discard)
        restart_task.add_done_callback(print)
        del restart_task


def start(session: Session) -> None:
    restart_task = asyncio.get_running_loop().create_task(session.restart())
    _background_tasks.add(restart_task)
    restart_task.add_done_callback(_background_tasks.discard)
    del restart_task
