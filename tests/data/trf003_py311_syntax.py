"""TRF003 through match, except* and asyncio.timeout (Python 3.11+)."""
import asyncio


async def job() -> None:
    await asyncio.sleep(1)


async def star_handler_reraises(arrival: "asyncio.Future[bytes]") -> None:
    helper = asyncio.create_task(job())
    try:
        await asyncio.wait_for(arrival, 1)  # error: TRF003:15
    except* TimeoutError:
        print("timed out")
        raise
    await helper


async def star_handler_falls_through(arrival: "asyncio.Future[bytes]") -> None:
    helper = asyncio.create_task(job())
    try:
        await asyncio.wait_for(arrival, 1)
    except* TimeoutError:
        print("timed out")
    await helper


async def star_finally_cancels(arrival: "asyncio.Future[bytes]") -> None:
    helper = asyncio.create_task(job())
    try:
        await asyncio.wait_for(arrival, 1)
    except* ValueError:
        pass
    finally:
        helper.cancel()


async def in_a_match_case(command: str, arrival: "asyncio.Future[bytes]") -> None:
    helper = asyncio.create_task(job())
    match command:
        case "wait":
            await asyncio.wait_for(arrival, 1)  # error: TRF003:19
        case _:
            pass
    await helper


async def other_case_spawns(command: str, arrival: "asyncio.Future[bytes]") -> None:
    match command:
        case "spawn":
            helper = asyncio.create_task(job())
            await helper
        case _:
            await asyncio.wait_for(arrival, 1)


async def lambda_is_another_scope(arrival: "asyncio.Future[bytes]") -> None:
    helper = asyncio.create_task(job())
    waiter = lambda: asyncio.wait_for(arrival, 1)  # noqa: E731
    await helper
    await waiter()
