"""A spawn that runs at import before asyncio is imported: the set comes before
it, so its annotation may use only what is imported by then."""
from typing import Any

loop = __import__("asyncio").new_event_loop()
loop.create_task(__import__("asyncio").sleep(0))

import asyncio  # noqa: E402


def later() -> None:
    asyncio.create_task(asyncio.sleep(0.01))
