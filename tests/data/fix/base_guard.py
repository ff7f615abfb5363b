"""Issue 17, item 4: where an instance set is created.  A base in the same file
(its __init__ is not the place), a guard before the base initialiser, and a
pydantic-style base that refuses attributes until its own __init__ ran."""
import asyncio
from typing import Any, Dict


class Base:
    def __init__(self, name: str) -> None:
        self.name = name


class Worker(Base):
    """Spawns from a method; its __init__ checks its argument first."""

    def __init__(self, name: str) -> None:
        if not name:
            raise ValueError("a worker needs a name")
        super().__init__(name)
        self.count = 0

    def kick(self) -> None:
        asyncio.create_task(self._run())

    async def _run(self) -> None:
        self.count += await asyncio.sleep(0, 1)


class Model:
    """Refuses attributes until its own __init__ ran, as pydantic models do."""

    def __init__(self, **fields: Any) -> None:
        object.__setattr__(self, "_ready", True)
        self._fields: Dict[str, Any] = dict(fields)

    def __setattr__(self, name: str, value: Any) -> None:
        if not getattr(self, "_ready", False):
            raise AttributeError(f"{name}: not initialised yet")
        object.__setattr__(self, name, value)


class Job(Model):
    def __init__(self, **fields: Any) -> None:
        super().__init__(**fields)

    def launch(self) -> None:
        asyncio.create_task(self._go())

    async def _go(self) -> None:
        await asyncio.sleep(0.01)
