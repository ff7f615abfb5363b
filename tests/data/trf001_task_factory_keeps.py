"""A module that installs a task factory of its own that keeps each task it makes
(Toga's ``App``: a strong set, discarded when done) has no finding: every task of
that loop is held until done, wherever it was spawned, and the analysis cannot
tell which loop a spawn runs on.  Its twins, a factory that keeps nothing and
one that is not the module's, are in trf001_task_factory_not_keeping.py."""
import asyncio
from typing import Any, ClassVar, Coroutine, Set


async def job() -> None:
    await asyncio.sleep(1)


class App:
    _running_tasks: ClassVar[Set["asyncio.Task[Any]"]] = set()

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()

    def _install_task_factory_wrapper(self) -> None:
        platform_task_factory = self.loop.get_task_factory()

        def factory(
            loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, Any], **kwargs: Any
        ) -> "asyncio.Task[Any]":
            if platform_task_factory is not None:
                task = platform_task_factory(loop, coro, **kwargs)
            else:
                task = asyncio.Task(coro, loop=loop, **kwargs)
            self._running_tasks.add(task)  # type: ignore[arg-type]
            task.add_done_callback(self._running_tasks.discard)  # type: ignore[arg-type]
            return task  # type: ignore[return-value]

        self.loop.set_task_factory(factory)  # type: ignore[arg-type]

    def _startup(self) -> None:
        self._install_task_factory_wrapper()
        self.loop.create_task(job())  # (kept by the factory's set)

    async def on_press(self) -> None:
        asyncio.create_task(job())  # (the same)
        task = asyncio.ensure_future(job())
        task.add_done_callback(print)
        await asyncio.wait_for(asyncio.sleep(1), 1)
