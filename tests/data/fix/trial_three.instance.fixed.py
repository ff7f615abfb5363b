"""Shapes from a third new-user trial (litellm, nextcord): sets that are not
reused, the throwaway name ``_``, and a file whose lines pass the limit."""
import asyncio

_background_tasks: set[asyncio.Task[object]] = set()

_billing_retries = set()
_narrow_tasks: "set[asyncio.Task[None]]" = set()


async def bill() -> None:
    await asyncio.sleep(1)


async def stream() -> None:
    await asyncio.sleep(1)


def retry_billing() -> None:
    retry = asyncio.create_task(bill())
    _billing_retries.add(retry)
    retry.add_done_callback(_billing_retries.discard)
    narrow = asyncio.create_task(bill())
    _narrow_tasks.add(narrow)
    narrow.add_done_callback(_narrow_tasks.discard)


def start_streaming() -> None:
    stream_task = asyncio.create_task(stream())
    _background_tasks.add(stream_task)
    stream_task.add_done_callback(_background_tasks.discard)
    del stream_task


class Cache:
    async def ping(self) -> None:
        await asyncio.sleep(1)

    def connect(self) -> None:
        for _ in range(2):
            pass
        ping_task = asyncio.get_running_loop().create_task(self.ping())
        _background_tasks.add(ping_task)
        ping_task.add_done_callback(_background_tasks.discard)
        del ping_task

    def connect_and_show(self) -> None:
        _ = asyncio.create_task(self.ping())
        _background_tasks.add(_)
        _.add_done_callback(_background_tasks.discard)
        print(_)


def dispatch(coro, handler_name: str) -> None:
    if handler_name:
        if handler_name != "ready":
            if handler_name != "resumed":
                stream_with_logging_task = asyncio.create_task(
                    stream_with_logging(coro, info="Voice Protocol voice state update handler")
                )
                _background_tasks.add(stream_with_logging_task)
                stream_with_logging_task.add_done_callback(
                    _background_tasks.discard
                )
                del stream_with_logging_task


async def stream_with_logging(coro, info: str) -> None:
    await coro
