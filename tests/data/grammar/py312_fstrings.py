"""Grammar coverage: PEP 701 f-strings (3.12): nested quotes and expressions."""
import asyncio
from typing import Any


async def job(value: Any = None) -> Any:
    await asyncio.sleep(0)
    return value


async def formatted(names: list[str]) -> str:
    text = f"{f"{f"{asyncio.create_task(job())!r}"}"}"
    multi = f"{
        asyncio.create_task(job("a"))  # a comment inside the replacement field
    }"
    joined = f"{"\n".join(names)} {asyncio.ensure_future(job()):>{len(names)}}"
    task = asyncio.create_task(job())
    spec = f"{await task=}"
    return text + multi + joined + spec
