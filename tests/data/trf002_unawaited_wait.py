"""``asyncio.wait()`` or ``asyncio.wait_for()`` called and not awaited makes a
coroutine that never runs: the tasks given to it are held by nothing (aredis's
``PubSubWorkerThread.stop()``, a miss of the seventeenth trial of issue 32).
The twins await the wait, or keep the coroutine and await it later."""
import asyncio


def stop(loop, pubsub):
    unsubscribed = asyncio.run_coroutine_threadsafe(pubsub.unsubscribe(), loop)  # error: TRF002:20
    punsubscribed = asyncio.run_coroutine_threadsafe(pubsub.punsubscribe(), loop)  # error: TRF002:21
    asyncio.wait([unsubscribed, punsubscribed])


async def close(work):
    task = asyncio.create_task(work())  # error: TRF002:12
    asyncio.wait_for(task, 1)


async def close_twin(work):
    task = asyncio.create_task(work())
    await asyncio.wait_for(task, 1)


async def close_later(work):
    task = asyncio.create_task(work())
    waiter = asyncio.wait([task])
    await waiter
