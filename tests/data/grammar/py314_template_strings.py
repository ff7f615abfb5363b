"""Grammar coverage: PEP 750 template strings, PEP 758 except without
parentheses and create_task's keywords (3.14)."""
import asyncio
from string.templatelib import Interpolation, Template


async def job(value: object = None) -> object:
    await asyncio.sleep(0)
    return value


async def templates(name: str, width: int) -> Template:
    asyncio.create_task(job(t"{name}"), name=t"job {name!r:>{width}}")
    held = t"{asyncio.create_task(job())} {name=}"
    for part in held:
        if isinstance(part, Interpolation):
            print(part.value, part.conversion, part.format_spec)
    nested = t"{t'{asyncio.ensure_future(job())}'}"
    print(nested.strings, nested.values)
    return t"{asyncio.create_task(job(), eager_start=True)}"


async def handlers(arrival: "asyncio.Future[bytes]") -> None:
    helper = asyncio.create_task(job())
    try:
        await asyncio.wait_for(arrival, 1)
    except ValueError, TimeoutError:
        return
    try:
        await helper
    except* KeyError, IndexError:
        pass
