"""A method that returns a list of fresh tasks."""
import asyncio
from typing import Any, Awaitable, Callable, List


class EventBus:
    def __init__(self) -> None:
        self.handlers: List[Callable[[Any], Awaitable[Any]]] = []

    def dispatch(self, event: Any) -> "List[asyncio.Task[Any]]":
        return [asyncio.create_task(handler(event)) for handler in self.handlers]  # type: ignore[arg-type]
