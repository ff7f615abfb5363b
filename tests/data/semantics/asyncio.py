"""A recording stand-in for asyncio, for the differential test of --fix
(tests/test_fix_semantics.py): the programs import it as asyncio."""
from fakes import LOOP, Future, Loop, Task, record, spawn

__all__ = ["Future", "Loop", "Task", "create_task", "ensure_future", "get_event_loop", "get_running_loop"]


def create_task(coro, *, name=None, context=None):
    return spawn("create_task", coro, name)


def ensure_future(coro, *, loop=None):
    return spawn("ensure_future", coro, None)


def get_running_loop():
    record("get_running_loop")
    return LOOP


def get_event_loop():
    record("get_event_loop")
    return LOOP
