# flake8-taskref-args: --max-line-length 99
"""Comments that must stay on the line of the code they cover (issue 25): the
codes the fix resolves go, the rest stay with their code, and mypy --strict
(warn_unused_ignores) reports nothing before or after the fix."""
# mypy: enable-error-code="unused-awaitable"
import asyncio
from typing import Any

_background_tasks: "set[asyncio.Task[object]]" = set()


def legacy(n):  # type: ignore[no-untyped-def]
    return asyncio.sleep(n)


async def work(n: int) -> None:
    await asyncio.sleep(n)


class Service:
    def __init__(self, value: Any) -> None:
        self.value = value
        self.name = "service"
        self.retries = 3

    def start(self) -> None:
        legacy_task = asyncio.create_task(legacy(1))  # type: ignore[no-untyped-call]
        _background_tasks.add(legacy_task)
        legacy_task.add_done_callback(_background_tasks.discard)
        del legacy_task
        work_task = asyncio.create_task(work(self.name))  # type: ignore[arg-type]
        _background_tasks.add(work_task)
        work_task.add_done_callback(_background_tasks.discard)
        del work_task
        work_task_1 = asyncio.create_task(work(2))
        _background_tasks.add(work_task_1)
        work_task_1.add_done_callback(_background_tasks.discard)
        del work_task_1
        work_task_2 = asyncio.create_task(work(3))
        _background_tasks.add(work_task_2)
        work_task_2.add_done_callback(_background_tasks.discard)
        del work_task_2
        work_task_3 = asyncio.create_task(work(self.retries))  # noqa: E501
        _background_tasks.add(work_task_3)
        work_task_3.add_done_callback(_background_tasks.discard)
        del work_task_3
        legacy_task_1 = (
            asyncio.create_task(legacy(self.retries), name="service start")  # type: ignore
        )
        _background_tasks.add(legacy_task_1)
        legacy_task_1.add_done_callback(_background_tasks.discard)
        del legacy_task_1
        work_task_4 = asyncio.create_task(  # pyright: ignore[reportArgumentType]
            work(self.name),  # type: ignore[arg-type]
        )
        _background_tasks.add(work_task_4)
        work_task_4.add_done_callback(_background_tasks.discard)
        del work_task_4
        legacy_task_2 = asyncio.create_task(legacy(  # type: ignore[no-untyped-call]
            self.retries,
        ))
        _background_tasks.add(legacy_task_2)
        legacy_task_2.add_done_callback(_background_tasks.discard)
        del legacy_task_2

    async def stop(self) -> None:
        legacy_task = (
            asyncio.create_task(legacy(self.retries), name="stop")  # type: ignore[no-untyped-call]
        )
        _background_tasks.add(legacy_task)
        legacy_task.add_done_callback(_background_tasks.discard)
        del legacy_task
        legacy_task_1 = (
            asyncio.create_task(legacy(  # type: ignore[no-untyped-call]  # the old client's
                self.retries,
            ), name="stopping")
        )
        _background_tasks.add(legacy_task_1)
        legacy_task_1.add_done_callback(_background_tasks.discard)
        del legacy_task_1
