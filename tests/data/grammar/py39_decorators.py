"""Grammar coverage: decorators (PEP 614 arbitrary expressions) with spawns."""
import asyncio
import functools
from typing import Any, Callable, Dict, List

REGISTRY: Dict[str, Any] = {}
HOOKS: List[Callable[..., Any]] = [lambda f: f]


async def job(value: Any = None) -> Any:
    await asyncio.sleep(0)
    return value


def register(name: str) -> Callable[[Any], Any]:
    def wrap(func: Any) -> Any:
        REGISTRY[name] = asyncio.ensure_future(job(name))
        return func
    return wrap


def background(func: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> None:
        asyncio.create_task(func(*args, **kwargs))
    return wrapper


@register("plain")
@background
async def decorated() -> None:
    asyncio.create_task(job())


@HOOKS[0]
@(lambda f: f)
@register(asyncio.create_task(job()).get_name() if False else "x")
async def pep614() -> None:
    task = asyncio.create_task(job())
    await task


@register("cls")
class Service:
    @staticmethod
    def start() -> None:
        asyncio.create_task(job())

    @classmethod
    def create(cls) -> "Service":
        asyncio.ensure_future(job(cls))
        return cls()

    @property
    def task(self) -> "asyncio.Task[Any]":
        return asyncio.create_task(job())

    @functools.lru_cache(maxsize=None)
    def cached(self) -> None:
        self.loop_task = asyncio.create_task(job())
