"""A nested function reads a local of the function around it whose class that
function shows (``exporter = Exporter(config)``): ``exporter.stop()`` in the
closure is looked up in ``Exporter`` as it is in the outer function, so the
spawn of a coroutine method that never suspends is silent (labgrid's signal
handler ``_stop``, the twenty-fourth trial).  The twins: a method that waits, a
local bound twice, a closure that binds the name itself, a lambda."""
import asyncio
import signal


class Exporter:
    def __init__(self) -> None:
        self.poll_task: "asyncio.Task[None] | None" = None

    async def stop(self) -> None:
        if self.poll_task is not None:
            self.poll_task.cancel()

    async def run(self) -> None:
        await asyncio.sleep(1)


async def amain() -> None:
    exporter = Exporter()

    def _stop() -> None:
        asyncio.ensure_future(exporter.stop())

    def _restart() -> None:
        asyncio.ensure_future(exporter.run())  # error: TRF001:9

    def nested() -> None:
        def deeper() -> None:
            asyncio.ensure_future(exporter.stop())
        deeper()

    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGINT, _stop)
    loop.add_signal_handler(signal.SIGHUP, _restart)
    loop.call_soon(nested)
    loop.call_soon(lambda: asyncio.ensure_future(exporter.stop()))
    await exporter.run()


async def rebound(other: object) -> None:
    exporter = Exporter()

    def _stop() -> None:
        asyncio.ensure_future(exporter.stop())  # error: TRF001:9

    asyncio.get_running_loop().add_signal_handler(signal.SIGINT, _stop)
    exporter = other  # type: ignore[assignment]
    await asyncio.sleep(1)


async def own_binding() -> None:
    exporter = Exporter()

    def _stop(exporter: object) -> None:
        asyncio.ensure_future(exporter.stop())  # type: ignore[attr-defined]  # error: TRF001:9

    asyncio.get_running_loop().add_signal_handler(signal.SIGINT, _stop, exporter)
    await asyncio.sleep(1)
