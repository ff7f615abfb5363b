import asyncio

__all__ = ["describe"]


def detach(coro):
    return asyncio.ensure_future(coro)


def describe(task):
    return repr(task)
