"""A ``finally`` that finishes the tasks through a comprehension of them
(``await asyncio.gather(*(cancel_and_wait(t) for t in tasks))``): the element,
written before the ``for``, sees the comprehension's target (evalscope's
benchmark pipeline and toolathlon client, false alarms of the thirty-sixth
trial, TRF007 and TRF005).  The twins: a comprehension that only looks at the
tasks, or one over another collection, finishes nothing."""
import asyncio


async def cancel_and_wait(task):
    task.cancel()
    try:
        await task
    except asyncio.CancelledError:
        pass


async def pipeline(producer, consumer):
    producer_task = asyncio.create_task(producer)
    consumer_task = asyncio.create_task(consumer)
    try:
        done, _ = await asyncio.wait((producer_task, consumer_task), return_when=asyncio.FIRST_COMPLETED)
        if consumer_task in done:
            raise RuntimeError("the consumer exited first")
        return await consumer_task
    finally:
        tasks = [producer_task, consumer_task]
        await asyncio.gather(*(cancel_and_wait(task) for task in tasks), return_exceptions=True)


async def listed(producer, consumer):
    producer_task = asyncio.create_task(producer)
    consumer_task = asyncio.create_task(consumer)
    try:
        done, _ = await asyncio.wait((producer_task, consumer_task), return_when=asyncio.FIRST_COMPLETED)
        if consumer_task in done:
            raise RuntimeError("the consumer exited first")
        return await consumer_task
    finally:
        await asyncio.gather(*[cancel_and_wait(task) for task in (producer_task, consumer_task)])


async def proxy(receive, send):
    tasks = {asyncio.create_task(receive()), asyncio.create_task(send())}
    try:
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in done:
            task.result()
    finally:
        await asyncio.gather(*(cancel_and_wait(task) for task in tasks), return_exceptions=True)


# --- the twins: reported


async def only_looked_at(producer, consumer, log):
    producer_task = asyncio.create_task(producer)
    consumer_task = asyncio.create_task(consumer)
    try:
        done, _ = await asyncio.wait((producer_task, consumer_task), return_when=asyncio.FIRST_COMPLETED)  # error: TRF005:25
        if consumer_task in done:
            raise RuntimeError("the consumer exited first")
        return await consumer_task
    finally:
        tasks = [producer_task, consumer_task]
        log([task.done() for task in tasks])


async def another_collection(producer, consumer, others):
    producer_task = asyncio.create_task(producer)
    consumer_task = asyncio.create_task(consumer)
    try:
        done, _ = await asyncio.wait((producer_task, consumer_task), return_when=asyncio.FIRST_COMPLETED)  # error: TRF005:25
        if consumer_task in done:
            raise RuntimeError("the consumer exited first")
        return await consumer_task
    finally:
        await asyncio.gather(*(cancel_and_wait(task) for task in others), return_exceptions=True)
