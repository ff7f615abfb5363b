"""``asyncio.ensure_future(x)`` of a name that may hold a future is silent (a
future is returned unchanged), unless an ``if`` around it says ``x`` is a
coroutine to run: ``asyncio.iscoroutine(x)``, ``inspect.isawaitable(x)`` or
``hasattr(x, "__await__")``, also among the operands of an ``and`` (eventkit's
``Event.emit`` of a coroutine listener, a miss of the twentieth trial that Ruff's
RUF006 reports).  Each reported case has a silent twin."""
import asyncio
import inspect


def emit(listeners, *args):
    for listener in listeners:
        result = listener(*args)
        if result and hasattr(result, "__await__"):
            asyncio.ensure_future(result)  # error: TRF001:13


def emit_coroutines(listeners, *args):
    for listener in listeners:
        result = listener(*args)
        if asyncio.iscoroutine(result):
            asyncio.ensure_future(result)  # error: TRF001:13


def emit_awaitables(listeners, *args):
    for listener in listeners:
        result = listener(*args)
        if inspect.isawaitable(result):
            asyncio.ensure_future(result)  # error: TRF001:13


def emit_untested(listeners, *args):
    for listener in listeners:
        result = listener(*args)
        asyncio.ensure_future(result)


def emit_not_coroutine(listeners, *args):
    for listener in listeners:
        result = listener(*args)
        if not asyncio.iscoroutine(result):
            asyncio.ensure_future(result)


def emit_else(listeners, *args):
    for listener in listeners:
        result = listener(*args)
        if asyncio.iscoroutine(result):
            print("coroutine")
        else:
            asyncio.ensure_future(result)


def emit_other(listeners, other, *args):
    for listener in listeners:
        result = listener(*args)
        if asyncio.iscoroutine(other):
            asyncio.ensure_future(result)


class Emitter:
    def __init__(self):
        self._tasks = set()

    def emit(self, listeners, *args):
        for listener in listeners:
            result = listener(*args)
            if asyncio.iscoroutine(result):
                task = asyncio.ensure_future(result)
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)
