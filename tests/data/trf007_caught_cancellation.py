"""A cancellation (or a timeout of asyncio's timed waits) caught at the first
wait of a ``try`` body after a task is made there, then a ``break``, ``return``
or ``raise``: what the body does with the task after that wait is skipped, and
``asyncio.wait`` does not cancel its tasks when it is cancelled (mcp-agent's
event bus, a miss of the sixteenth trial of issue 32; a read task left running
on purpose by a cancellation branch that re-raises).  The twins finish the task
on that path, wait on it in a way that cancels it, or cannot tell."""
import asyncio


class Bus:
    async def process(self):
        while self.running:
            try:
                got = asyncio.create_task(self.queue.get())  # error: TRF007:23
                stop = asyncio.create_task(self.stopped.wait())  # a stop event: its canceller sets it
                done, pending = await asyncio.wait([got, stop], return_when=asyncio.FIRST_COMPLETED)
                for task in pending:
                    task.cancel()
                if stop in done:
                    break
                event = got.result()
            except asyncio.CancelledError:
                break
            await self.handle(event)

    async def process_twin(self):
        while self.running:
            try:
                got = asyncio.create_task(self.queue.get())
                done, pending = await asyncio.wait([got], timeout=1)
                for task in pending:
                    task.cancel()
                event = got.result()
            except asyncio.CancelledError:
                got.cancel()
                break
            await self.handle(event)


class Reader:
    async def chunks(self):
        while True:
            read = asyncio.create_task(self.stream.next_chunk())  # error: TRF007:20
            try:
                await asyncio.wait({read})
            except asyncio.CancelledError:
                read.add_done_callback(self.observe)
                raise
            chunk = read.result()
            if not chunk:
                return
            yield chunk

    async def chunks_twin(self):
        while True:
            read = asyncio.create_task(self.stream.next_chunk())
            try:
                await read
            except asyncio.CancelledError:
                raise
            chunk = read.result()
            if not chunk:
                return
            yield chunk


async def shielded(work):
    # (a shield whose task nothing keeps: TRF004 says it, at the shield)
    try:
        task = asyncio.create_task(work())
        return await asyncio.shield(task)  # error: TRF004:22
    except asyncio.CancelledError:
        return None


async def gathered(work):
    try:
        task = asyncio.create_task(work())
        return await asyncio.gather(task)
    except asyncio.CancelledError:
        return None


async def timed(work, other):
    # (a timeout of a wait on another coroutine: TRF003 says it, at the wait)
    try:
        task = asyncio.create_task(work())
        await asyncio.wait_for(other(), 1)  # error: TRF003:15
        return await task
    except asyncio.TimeoutError:
        return None


async def caught_inside(work, other):
    try:
        task = asyncio.create_task(work())
        try:
            await other()
        except asyncio.CancelledError:
            pass
        return await task
    except asyncio.CancelledError:
        return None


async def next_pass(work, other, items):
    for item in items:
        try:
            task = asyncio.create_task(work(item))
            await other()
            await task
        except asyncio.CancelledError:
            continue


async def quiet():
    print("quiet")


async def never_waits_first(work):
    try:
        task = asyncio.create_task(work())
        await quiet()  # never suspends: no cancellation comes from here
        await task
    except asyncio.CancelledError:
        return None


async def unknown_first(work, ws):
    try:
        task = asyncio.create_task(work())  # error: TRF007:16
        await ws.recv()
        await task
    except asyncio.CancelledError:
        return None


async def timeout_block_first(work):
    try:
        task = asyncio.create_task(work())
        async with asyncio.timeout(1):  # its entry never suspends
            await task
    except asyncio.CancelledError:
        return None


async def timeout_block_timed(work, other, items):
    for item in items:
        try:
            task = asyncio.create_task(work(item))  # error: TRF007:20
            async with asyncio.timeout(1):
                await other()
            await task
        except TimeoutError:
            break


async def earlier_handler(work, other):
    # (the first handler catches the cancellation, and cancels the task)
    try:
        task = asyncio.create_task(work())
        await other()
        await task
    except asyncio.CancelledError:
        task.cancel()
        raise
    except:  # noqa: E722
        return None


async def earlier_handler_timeout(work, other, items):
    for item in items:
        try:
            task = asyncio.create_task(work(item))
            async with asyncio.timeout(1):
                await other()
            await task
        except TimeoutError:
            task.cancel()
            raise
        except Exception:
            break


async def task_group_entry(work):
    # (a task group's entry never suspends: the cancellation comes at ``await task``)
    try:
        task = asyncio.create_task(work())
        async with asyncio.TaskGroup():
            await task
    except asyncio.CancelledError:
        return None


async def each_in_turn(work, files):
    # vectorcode's update (the thirty-fourth trial): a cancellation at `await task` cancels
    # that one task only; the others in the list are still pending at the return
    try:
        tasks = [asyncio.create_task(work(f)) for f in files]  # error: TRF007:18
        for task in asyncio.as_completed(tasks):
            await task
    except asyncio.CancelledError:
        return 1
    return 0


async def each_in_order(work, files):
    try:
        tasks = [asyncio.create_task(work(f)) for f in files]  # error: TRF007:18
        for task in tasks:
            await task
    except asyncio.CancelledError:
        return 1
    return 0


async def each_in_order_twin(work, files):
    try:
        tasks = [asyncio.create_task(work(f)) for f in files]
        for task in tasks:
            await task
    except asyncio.CancelledError:
        for task in tasks:  # (the handler cancels the others)
            task.cancel()
        return 1
    return 0


async def only_one_twin(work, file):
    try:
        tasks = [asyncio.create_task(work(file))]  # (one task: the wait on it cancels it)
        for task in tasks:
            await task
    except asyncio.CancelledError:
        return 1
    return 0


async def each_filtered_twin(work, files):
    # (the handler cancels those not done, through a comprehension: a review's false alarm)
    try:
        tasks = [asyncio.create_task(work(f)) for f in files]
        for task in asyncio.as_completed(tasks):
            await task
    except asyncio.CancelledError:
        pending = [t for t in tasks if not t.done()]
        for t in pending:
            t.cancel()
        return 1
    return 0
