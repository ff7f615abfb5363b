"""A coroutine function of the file handed to a spawner by its name, without its
call (``create_task(stop)``): ``create_task`` raises ``TypeError`` before any
task exists, so there is no task to lose.  The twins hand a coroutine, or a name
that may hold one: a parameter, a function bound twice; and a method
(``create_task(self._stop)``, splitio's synchronizer, a false alarm of the
thirty-sixth trial's sweep, left: an instance attribute may hide it)."""
import asyncio


async def stop():
    await asyncio.sleep(1)


class Synchronizer:
    def __init__(self, hook=None):
        if hook is not None:
            self._hook = hook

    async def _stop(self):
        await asyncio.sleep(1)

    async def _hook(self):
        await asyncio.sleep(1)

    def shutdown(self, coro):
        asyncio.get_running_loop().create_task(self._stop)  # error: TRF001:9
        asyncio.create_task(stop)
        asyncio.get_running_loop().create_task(self._stop())  # error: TRF001:9
        asyncio.ensure_future(coro)
        asyncio.create_task(coro)  # error: TRF001:9
        asyncio.create_task(self._hook)  # error: TRF001:9


async def twice():
    await asyncio.sleep(1)


async def twice():  # noqa: F811
    await asyncio.sleep(2)


def start():
    asyncio.create_task(twice)  # error: TRF001:5
