"""Collection methods called without the arguments they take (``target.insert()``,
SQLAlchemy's ``table.insert()``, ``setdefault()``) beside a spawn: the pass reads
them as calls that add nothing, and the spawn is still reported (the pass raised
``IndexError`` on a local receiver before, a fresh-eyes review's find: every
finding of the file was lost to an internal error)."""
import asyncio
from typing import Any, Coroutine, Dict, List

registry: List[Any] = []


class Store:
    def __init__(self) -> None:
        self.tasks: Dict[str, Any] = {}

    async def run(self, table: Any, coro: Coroutine[Any, Any, None]) -> None:
        table.insert()
        self.tasks.setdefault()  # type: ignore[call-overload]
        registry.insert()  # type: ignore[call-arg]
        asyncio.create_task(coro)  # error: TRF001:9
