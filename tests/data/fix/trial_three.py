"""Shapes from a third new-user trial (litellm, nextcord): sets that are not
reused, the throwaway name ``_``, and a file whose lines pass the limit."""
import asyncio

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
    asyncio.create_task(stream())


class Cache:
    async def ping(self) -> None:
        await asyncio.sleep(1)

    def connect(self) -> None:
        for _ in range(2):
            pass
        _ = asyncio.get_running_loop().create_task(self.ping())

    def connect_and_show(self) -> None:
        _ = asyncio.create_task(self.ping())
        print(_)


def dispatch(coro, handler_name: str) -> None:
    if handler_name:
        if handler_name != "ready":
            if handler_name != "resumed":
                asyncio.create_task(
                    stream_with_logging(coro, info="Voice Protocol voice state update handler")
                )


async def stream_with_logging(coro, info: str) -> None:
    await coro
