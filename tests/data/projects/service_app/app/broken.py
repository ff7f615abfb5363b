"""A module that does not parse: nothing is known of it."""
import asyncio


def spawn(coro):
    return asyncio.create_task(coro)


def broken(:
    pass
