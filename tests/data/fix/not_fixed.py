import asyncio


async def job() -> None:
    await asyncio.sleep(1)


async def main(loop: asyncio.AbstractEventLoop, fut: "asyncio.Future[None]") -> None:
    loop.call_soon(lambda: asyncio.create_task(job()))
    [asyncio.create_task(job()) for _ in range(3)]
    if fut.done(): asyncio.create_task(job())
    asyncio.create_task(job()); print("started")
    a, b = asyncio.create_task(job()), asyncio.create_task(job())
    asyncio.create_task(job())  # noqa: TRF001
    try:
        await asyncio.wait_for(fut, timeout=1)
    finally:
        print(a, b)


async def handle(arrival: "asyncio.Future[bytes]", loop: asyncio.AbstractEventLoop) -> bytes:
    loop.call_soon(asyncio.create_task, job())
    encode = asyncio.create_task(job())
    try:
        data = await asyncio.wait_for(arrival, timeout=10)
    except asyncio.TimeoutError:
        return b""
    await encode
    return data


def compute() -> int:
    return 1


async def ordered() -> None:
    print(compute(), asyncio.create_task(job()))
    print(asyncio.create_task(job()) if compute() else None)
    print(
        "started",
        asyncio.create_task(
            job(),
        ).get_name(),
    )


class SemaphoreTest:
    def assertTrue(self, value: object) -> None:
        print(value)

    def test_acquire(self) -> None:
        # self.assertTrue is read before the spawn runs: moving the spawn would reorder them
        self.assertTrue(asyncio.ensure_future(job()).done())
