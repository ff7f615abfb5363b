"""Classes whose methods cannot be known from their text."""
import asyncio
from typing import Any


class Meta(type):
    pass


class Proxied:
    def __getattr__(self, name: str) -> Any:
        return asyncio.create_task


class WithMeta(metaclass=Meta):
    def start(self, coro: Any) -> "asyncio.Task[Any]":
        return asyncio.create_task(coro)
