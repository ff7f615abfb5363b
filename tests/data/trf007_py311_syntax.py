"""TRF007 through ``try``/``except*`` (Python 3.11+): a task made before a
``try`` whose ``except*`` or ``finally`` finishes it is still pending when a
wait before the ``try`` raises, as with a plain ``try`` (fresh-eyes review of
issue 32).  Each has a twin that makes the task inside the ``try``."""
import asyncio


async def work() -> None:
    await asyncio.sleep(1)


async def star_finally(ready: asyncio.Event) -> None:
    task = asyncio.create_task(work())  # error: TRF007:12
    await ready.wait()
    try:
        await asyncio.sleep(1)
    except* ValueError:
        pass
    finally:
        task.cancel()


async def star_handler(ready: asyncio.Event) -> None:
    task = asyncio.create_task(work())  # error: TRF007:12
    await ready.wait()
    try:
        await asyncio.sleep(1)
    except* Exception:
        task.cancel()
        raise


async def star_finally_inside(ready: asyncio.Event) -> None:
    try:
        task = asyncio.create_task(work())
        await ready.wait()
        await asyncio.sleep(1)
    except* ValueError:
        pass
    finally:
        task.cancel()


def star_finally_after_spawn(loop, coro, note) -> None:
    # (a ``finally`` of a ``try``/``except*`` in the body runs after the spawn: it may raise)
    try:
        while True:
            try:
                future = asyncio.run_coroutine_threadsafe(coro, loop)  # error: TRF007:26
                break
            except* ValueError:
                pass
            finally:
                note()
    except BaseException:
        coro.close()
        raise
    future.result()
