"""A function that declares a local of a function around it ``nonlocal`` may
rebind it, so that local is not looked up in the class the outer function gave
it (``trf001_one_step_closure.py``'s silent spawn is reported here), whether the
spawn is in another nested function or in the function that binds it; nor is a
local the function imports again or rebinds by ``+=`` (a fresh-eyes review's
cases)."""
import asyncio
from typing import Any


class Exporter:
    async def stop(self) -> None:
        pass

    def __iadd__(self, other: Any) -> Any:
        return other


class Other:
    async def stop(self) -> None:
        await asyncio.sleep(1)


async def amain() -> None:
    exporter = Exporter()

    def _stop() -> None:
        asyncio.ensure_future(exporter.stop())  # error: TRF001:9

    def _swap() -> None:
        nonlocal exporter
        exporter = Other()  # type: ignore[assignment]

    loop = asyncio.get_running_loop()
    loop.call_soon(_swap)
    loop.call_soon(_stop)
    await asyncio.sleep(1)


async def direct() -> None:
    exporter = Exporter()

    def swap() -> None:
        nonlocal exporter
        exporter = Other()  # type: ignore[assignment]

    swap()
    asyncio.ensure_future(exporter.stop())  # error: TRF001:5
    await asyncio.sleep(1)


async def imported_again() -> None:
    exporter = Exporter()

    def _stop() -> None:
        asyncio.ensure_future(exporter.stop())  # error: TRF001:9

    asyncio.get_running_loop().call_soon(_stop)
    from asyncio import Event as exporter  # type: ignore[assignment]  # noqa: F401
    await asyncio.sleep(1)


async def added_to(other: Other) -> None:
    exporter = Exporter()
    exporter += other
    asyncio.ensure_future(exporter.stop())  # error: TRF001:5
    await asyncio.sleep(1)
