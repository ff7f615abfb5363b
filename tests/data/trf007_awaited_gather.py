"""Tasks made inside an awaited gather are done when it returns: an exit after
it meets none pending (a sensor client's gather of two requests, seventh trial
of issue 32: reported before, the gather's end was taken at its start).  The
twin awaits the first task only after the exit."""
import asyncio


class CheckError(Exception):
    pass


async def both_then_check(request):
    first, second = await asyncio.gather(
        asyncio.create_task(request("list")),
        asyncio.create_task(request("value")),
    )
    if len(second) != 1:
        raise CheckError(second)
    return first, second


async def both_then_check_twin(request):
    first = asyncio.create_task(request("list"))  # error: TRF007:13
    second = await request("value")
    if len(second) != 1:
        raise CheckError(second)  # the first still runs
    return await first, second
