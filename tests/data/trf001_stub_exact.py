"""A coroutine whose body is a stub (``pass``, a docstring) never suspends; it is
taken for a hook a subclass overrides (or a placeholder still to write) but where
no subclass can: a method called on a local made, once, from a class of the file
(``handler = LogHandler()``) is one step (elephantq's ``setup_database()``, a false
alarm of the thirty-eighth trial's sweep of issue 32).  The twins call the stub
through ``self``, through a typed parameter, on a local bound twice or made by a
function, and a module function that is a stub (a placeholder)."""
import asyncio


async def noop():
    """Nothing to do yet."""


class LogHandler:
    async def setup_database(self):
        """Tables are created by migrations. No-op."""
        pass

    def start(self):
        asyncio.create_task(self.setup_database())  # error: TRF001:9


class Sub(LogHandler):
    pass


def make() -> LogHandler:
    return LogHandler()


def configure():
    handler = LogHandler()
    asyncio.create_task(handler.setup_database())
    asyncio.create_task(noop())  # error: TRF001:5
    other = Sub()
    asyncio.create_task(other.setup_database())


def configure_given(handler: LogHandler):
    asyncio.create_task(handler.setup_database())  # error: TRF001:5


def configure_rebound(flag):
    handler = LogHandler()
    if flag:
        handler = make()
    asyncio.create_task(handler.setup_database())  # error: TRF001:5


def configure_made():
    handler = make()
    asyncio.create_task(handler.setup_database())  # error: TRF001:5


class Patched:
    async def start(self):
        pass

    async def stop(self):
        pass


def patched(impl):
    obj = Patched()
    obj.start = impl
    asyncio.create_task(obj.start())  # error: TRF001:5


def patched_by_setattr(impl):
    obj = Patched()
    setattr(obj, "stop", impl)
    asyncio.create_task(obj.stop())  # error: TRF001:5
