import asyncio


async def job() -> int:
    await asyncio.sleep(1)
    return 1


def report(future: "asyncio.Future[int]") -> None:
    print(future.result())


async def main() -> None:
    # report when done
    asyncio.ensure_future(job()).add_done_callback(report)  # a comment
    print(asyncio.create_task(job()))
    print("started", 1, asyncio.create_task(job()).get_name(), flush=True)

