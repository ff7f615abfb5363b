"""What the plugin's path asks of a spawned coroutine, and when (a fresh-eyes
review of the change that puts off entering a cold coroutine until a finding
hangs on it).  A method of an attribute whose stores give two classes is not
known: its spawn is reported, as by the full analysis, whichever function holds
the second store (a plain method, a spawned coroutine).  A coroutine that clears
the attribute holding its task is found however the store is spelled: a
comment inside parentheses, a form feed, an identifier Python reads in NFKC.
The twins: one class only, and no clear, are silent."""
import asyncio
from asyncio import ｅnsure_future as spawn_future


class Quick:
    async def run(self) -> None:
        self.count = 1  # never waits: its task ends in its first step


class Slow:
    async def run(self) -> None:
        await asyncio.sleep(1)


class TwoClasses:
    def poke(self) -> None:
        self.worker = Quick()
        asyncio.create_task(self.worker.run())  # error: TRF001:9

    def reset(self) -> None:
        self.worker = Slow()


class TwoClassesAnnotated:
    worker: Quick

    def poke(self) -> None:
        asyncio.create_task(self.worker.run())  # error: TRF001:9

    def reset(self) -> None:
        self.worker: Slow = Slow()


class TwoClassesInACoroutine:
    def poke(self, loop) -> None:
        self.worker = Quick()
        asyncio.run_coroutine_threadsafe(self.worker.run(), loop)  # error: TRF001:9

    async def reset(self) -> None:
        self.worker = Slow()
        await self.worker.run()

    def start(self) -> None:
        asyncio.create_task(self.reset())  # error: TRF001:9


class OneClass:
    def poke(self) -> None:
        self.worker = Quick()
        asyncio.create_task(self.worker.run())  # twin: one class, which never waits

    def reset(self) -> None:
        self.worker = Quick()


class ClearsInParentheses:
    async def _run(self) -> None:
        (self.  # the task
         task) = None
        await asyncio.sleep(1)

    def start(self, loop) -> None:
        self.task = loop.create_task(self._run())  # error: TRF001:21


class ClearsAfterAFormFeed:
    async def _run(self) -> None:
        self.task= None
        await asyncio.sleep(1)

    def start(self, loop) -> None:
        self.task = loop.create_task(self._run())  # error: TRF001:21


class ClearsInNFKC:
    async def _run(self) -> None:
        self.ｔａｓｋ = None
        await asyncio.sleep(1)

    def start(self, loop) -> None:
        self.task = loop.create_task(self._run())  # error: TRF001:21


class KeepsIt:
    async def _run(self) -> None:
        await asyncio.sleep(1)  # twin: no clear

    def start(self, loop) -> None:
        self.task = loop.create_task(self._run())


async def work() -> None:
    await asyncio.sleep(1)


def ensures_a_coroutine_local() -> None:
    coroutine = work()
    spawn_future(coroutine)  # error: TRF001:5
