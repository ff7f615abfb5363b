"""Handles named after what is spawned, as a reviewer would name them (issue 25):
never task_1, task_2 where the spawn has a word."""
import asyncio
import functools
from typing import Any, Callable, Coroutine, List

_background_tasks: "set[asyncio.Task[object]]" = set()


class Supervisor:
    def __init__(self, reader: Any, writer: Any, jobs: List[Any]) -> None:
        self.__background_tasks: set[asyncio.Future[Any]] = set()
        self.reader = reader
        self.writer = writer
        self.jobs = jobs
        self.client: Any = None
        self.on_message: Callable[[], Coroutine[Any, Any, None]] = self._idle
        self.pending_tasks: List[Coroutine[Any, Any, None]] = []

    async def _watchdog(self) -> None:
        await asyncio.sleep(1)

    async def _idle(self) -> None:
        pass

    async def _heartbeat(self, interval: float) -> None:
        await asyncio.sleep(interval)

    def _factory(self) -> Callable[[], Coroutine[Any, Any, None]]:
        return self._idle

    def start(self, coro: Coroutine[Any, Any, None]) -> None:
        watchdog_task = asyncio.create_task(self._watchdog())
        self.__background_tasks.add(watchdog_task)
        watchdog_task.add_done_callback(self.__background_tasks.discard)
        del watchdog_task
        heartbeat_task = asyncio.get_running_loop().create_task(
            self._heartbeat(5)
        )
        self.__background_tasks.add(heartbeat_task)
        heartbeat_task.add_done_callback(self.__background_tasks.discard)
        del heartbeat_task
        coro_task = asyncio.create_task(coro)
        self.__background_tasks.add(coro_task)
        coro_task.add_done_callback(self.__background_tasks.discard)
        del coro_task
        idle_task = asyncio.create_task(coro=self._idle())
        self.__background_tasks.add(idle_task)
        idle_task.add_done_callback(self.__background_tasks.discard)
        del idle_task
        heartbeat_task_1 = asyncio.create_task(
            asyncio.wait_for(self._heartbeat(1), timeout=5)
        )
        self.__background_tasks.add(heartbeat_task_1)
        heartbeat_task_1.add_done_callback(self.__background_tasks.discard)
        del heartbeat_task_1
        heartbeat_task_2 = asyncio.create_task(
            functools.partial(self._heartbeat, 2)()
        )
        self.__background_tasks.add(heartbeat_task_2)
        heartbeat_task_2.add_done_callback(self.__background_tasks.discard)
        del heartbeat_task_2
        factory_task = asyncio.create_task(self._factory()())
        self.__background_tasks.add(factory_task)
        factory_task.add_done_callback(self.__background_tasks.discard)
        del factory_task
        on_message_task = asyncio.create_task(self.on_message())
        self.__background_tasks.add(on_message_task)
        on_message_task.add_done_callback(self.__background_tasks.discard)
        del on_message_task
        run_task = asyncio.create_task(self.jobs[0].run())
        self.__background_tasks.add(run_task)
        run_task.add_done_callback(self.__background_tasks.discard)
        del run_task
        pending_task = asyncio.create_task(self.pending_tasks[0])
        self.__background_tasks.add(pending_task)
        pending_task.add_done_callback(self.__background_tasks.discard)
        del pending_task
        heartbeat_future = asyncio.gather(
            self._heartbeat(1), self._heartbeat(2)
        )
        self.__background_tasks.add(heartbeat_future)
        heartbeat_future.add_done_callback(self.__background_tasks.discard)
        del heartbeat_future

    def connect(self, coro: Coroutine[Any, Any, None]) -> None:
        # two methods of one name on different objects: each named with its object
        reader_run_task = asyncio.create_task(self.reader.run())
        self.__background_tasks.add(reader_run_task)
        reader_run_task.add_done_callback(self.__background_tasks.discard)
        del reader_run_task
        writer_run_task = asyncio.create_task(self.writer.run())
        self.__background_tasks.add(writer_run_task)
        writer_run_task.add_done_callback(self.__background_tasks.discard)
        del writer_run_task
        keepalive_task = asyncio.create_task(coro, name="keepalive")
        self.__background_tasks.add(keepalive_task)
        keepalive_task.add_done_callback(self.__background_tasks.discard)
        del keepalive_task
        serve_forever_task = asyncio.create_task(self.client.serve_forever())
        self.__background_tasks.add(serve_forever_task)
        serve_forever_task.add_done_callback(self.__background_tasks.discard)
        print(serve_forever_task)
        del serve_forever_task

    async def restart(self) -> None:
        reconnect_task = asyncio.create_task(self.reader.reconnect())
        self.__background_tasks.add(reconnect_task)
        reconnect_task.add_done_callback(self.__background_tasks.discard)
        del reconnect_task
        session_task = asyncio.create_task(await self.client.session())
        self.__background_tasks.add(session_task)
        session_task.add_done_callback(self.__background_tasks.discard)
        del session_task
        watchdog_task = asyncio.create_task(self._watchdog())
        self.__background_tasks.add(watchdog_task)
        watchdog_task.add_done_callback(self.__background_tasks.discard)
        del watchdog_task
        watchdog_task_1 = asyncio.create_task(self._watchdog())
        self.__background_tasks.add(watchdog_task_1)
        watchdog_task_1.add_done_callback(self.__background_tasks.discard)
        del watchdog_task_1


def launch(loop: asyncio.AbstractEventLoop) -> None:
    restart_task = loop.create_task(Supervisor(None, None, []).restart())
    _background_tasks.add(restart_task)
    restart_task.add_done_callback(_background_tasks.discard)
    del restart_task
