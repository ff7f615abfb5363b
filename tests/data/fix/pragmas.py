# flake8-taskref-args: --max-line-length 99
"""Comments that must stay on the line of the code they cover (issue 25): the
codes the fix resolves go, the rest stay with their code, and mypy --strict
(warn_unused_ignores) reports nothing before or after the fix."""
# mypy: enable-error-code="unused-awaitable"
import asyncio
from typing import Any


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
        asyncio.create_task(legacy(1))  # type: ignore[no-untyped-call, unused-awaitable]
        asyncio.create_task(work(self.name))  # type: ignore[arg-type, unused-awaitable]
        asyncio.create_task(work(2))  # type: ignore[unused-awaitable]
        asyncio.create_task(work(3))  # type: ignore[unused-awaitable]  # noqa: RUF006
        asyncio.create_task(work(self.retries))  # type: ignore[unused-awaitable]  # noqa: RUF006, E501
        asyncio.create_task(legacy(self.retries), name="service start")  # type: ignore
        asyncio.create_task(  # type: ignore[unused-awaitable]  # pyright: ignore[reportArgumentType]
            work(self.name),  # type: ignore[arg-type]
        )
        asyncio.create_task(legacy(  # type: ignore[no-untyped-call, unused-awaitable]
            self.retries,
        ))

    async def stop(self) -> None:
        _ = asyncio.create_task(legacy(self.retries), name="stop")  # type: ignore[no-untyped-call]
        _ = asyncio.create_task(legacy(  # type: ignore[no-untyped-call]  # the old client's
            self.retries,
        ), name="stopping")
