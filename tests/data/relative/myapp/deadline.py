"""A timeout helper, used as ``async with deadline(...)``."""
import asyncio
from typing import Any


def deadline(seconds: float) -> Any:
    return asyncio.timeout(seconds)  # type: ignore[attr-defined]
