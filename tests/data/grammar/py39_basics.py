"""Grammar coverage: everyday statements, each with asyncio spawns inside."""
import asyncio
import contextlib
from typing import Any, Dict, List, Optional, Set

BACKGROUND: Set["asyncio.Task[Any]"] = set()


async def job(*args: Any, **kwargs: Any) -> int:
    await asyncio.sleep(0.01)  # (a wait: ``sleep(0)`` never suspends, and its spawns are silent)
    return len(args) + len(kwargs)


async def statements(items: List[int], lock: asyncio.Lock, flag: bool) -> Optional[int]:
    first = asyncio.create_task(job(1))
    asyncio.create_task(job(2))
    if flag:
        second = asyncio.ensure_future(job(3))
    elif items:
        second = asyncio.create_task(job(*items))
    else:
        second = None
    for item in items:
        asyncio.create_task(job(item))
        if item > 3:
            break
    else:
        asyncio.create_task(job(0))
    while flag:
        asyncio.create_task(job())
        flag = not flag
    else:
        pass
    with contextlib.suppress(KeyError):
        asyncio.create_task(job(x=1))
    async with lock:
        third = asyncio.create_task(job())
        await third
    try:
        await asyncio.wait_for(job(), timeout=1)
    except (asyncio.TimeoutError, ValueError) as exc:
        asyncio.create_task(job(exc))
        raise RuntimeError("timeout") from exc
    except Exception:
        raise
    else:
        asyncio.create_task(job())
    finally:
        first.cancel()
    assert first.done(), asyncio.create_task(job())
    values: Dict[str, Any] = {"a": asyncio.create_task(job()), **{"b": 1}}
    sliced = items[1:asyncio.create_task(job()).get_name().count("x"):2]
    text = f"{asyncio.create_task(job())!r:>10} {items[0]:{len(items)}}"
    chained = 0 < len(items) <= 10 != asyncio.create_task(job()).done()
    maybe = asyncio.create_task(job()) if flag else asyncio.ensure_future(job())
    both = flag and asyncio.create_task(job()) or asyncio.create_task(job())
    negated = not asyncio.create_task(job())
    unary = -len(items) + ~3
    called = print(asyncio.create_task(job()), *items, sep="", **{"end": "\n"})
    ellipsis = ...
    print(second, values, sliced, text, chained, maybe, both, negated, unary, called, ellipsis)
    BACKGROUND.add(asyncio.create_task(job()))
    return await second if second is not None else None


def positional_only(a: int, /, b: int = 2, *args: int, c: int, d: int = 4, **kwargs: int) -> "asyncio.Future[int]":
    return asyncio.ensure_future(job(a, b, *args, c=c, d=d, **kwargs))


def generators(items: List[int]):  # type: ignore[no-untyped-def]
    yield asyncio.create_task(job())
    sent = yield
    yield from (asyncio.create_task(job(i)) for i in items)
    return sent


def loop_methods(loop: asyncio.AbstractEventLoop) -> None:
    loop.create_task(job())
    loop.call_soon(asyncio.create_task, job())
    loop.call_later(1, lambda: loop.create_task(job()))
    asyncio.get_event_loop().create_task(job())
    fut = asyncio.run_coroutine_threadsafe(job(), loop)
    fut.add_done_callback(lambda f: asyncio.ensure_future(job()))
