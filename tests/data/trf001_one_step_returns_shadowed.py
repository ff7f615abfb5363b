"""A builtin's name the file binds is not the builtin: ``str(coro)`` here returns a
new task, which the done task of a coroutine that returns it would alone hold (a
reviewer's false silence of the twenty-ninth trial's change)."""
import asyncio


def str(coro):  # noqa: A001
    return asyncio.ensure_future(coro)


class Maker:
    def __init__(self, loop):
        self.loop = loop

    def start(self):
        self.loop.create_task(self._shadowed())  # error: TRF001:9
        self.loop.create_task(self._counted())  # (``len`` is still the builtin)

    async def _shadowed(self):
        return str(asyncio.sleep(10))

    async def _counted(self):
        return len(self.loop.items)
