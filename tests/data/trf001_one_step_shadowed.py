"""A method whose coroutine never waits may be hidden by an instance attribute
of its name (``self.hook = callback``): then ``create_task(self.hook())`` runs
whatever the attribute holds, and its task is reported as any other (fresh-eyes
review of issue 32).  The twin without the attribute is silent
(``trf001_one_step.py``)."""
import asyncio


class Shadowed:
    def __init__(self, callback) -> None:
        self.hook = callback

    async def hook(self) -> None:
        self.flag = True

    def go(self) -> None:
        asyncio.create_task(self.hook())  # error: TRF001:9


class ShadowedLater:
    async def hook(self) -> None:
        self.flag = True

    def go(self) -> None:
        asyncio.create_task(self.hook())  # error: TRF001:9

    def configure(self, callback) -> None:
        self.hook = callback


class Plain:
    async def hook(self) -> None:
        self.flag = True

    def go(self) -> None:
        asyncio.create_task(self.hook())


class Base:
    def configure(self, callback) -> None:
        self.hook = callback  # a coroutine function that may wait


class Plugin(Base):
    def start(self) -> None:
        asyncio.create_task(self.hook())  # error: TRF001:9

    async def hook(self) -> None:
        self.flag = True


class ParenthesisedStore:
    async def hook(self) -> None:
        self.flag = True

    def go(self) -> None:
        asyncio.create_task(self.hook())  # error: TRF001:9

    def configure(self, callback) -> None:
        (self.hook) = callback


class OddlySpelledStores:
    async def hook(self) -> None:
        self.flag = True

    async def hook2(self) -> None:
        self.flag = True

    async def hook3(self) -> None:
        self.flag = True

    def go(self) -> None:
        asyncio.create_task(self.hook())  # error: TRF001:9
        asyncio.create_task(self.hook2())  # error: TRF001:9
        asyncio.create_task(self.hook3())  # error: TRF001:9

    def configure(self, callback) -> None:
        self . hook = callback
        self.hook2 \
            = callback
        (self.hook3  # a comment
         ) = callback
