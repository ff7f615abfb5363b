import asyncio


def start(coro):
    return asyncio.create_task(coro)


def _start_quietly(coro):
    return asyncio.create_task(coro)
