"""TRF007 and a task that waits for an event (``stopped.wait()``): when the way
out sets that very event, in a ``finally`` around the exit or before it on its
path, the waiter is woken there, and the loop's queue of ready callbacks holds
its task until its next step ends it (asysocks' ``proxy_stream``, a false alarm
of the thirty-sixth trial).  The twins set another event, set it on another
branch only, or after the exit's ``try``: the task is still waiting when the
frame ends."""
import asyncio


async def proxy_stream(reader, writer, stopped):
    try:
        while True:
            read_task = asyncio.create_task(reader.read(4096))  # error: TRF007:25
            wait_task = asyncio.create_task(stopped.wait())
            done, pending = await asyncio.wait([read_task, wait_task], return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                result = await task
                if result == b"":
                    return
                writer.write(result)
                for other in pending:
                    other.cancel()
    except asyncio.CancelledError:
        return
    finally:
        writer.close()
        stopped.set()


async def set_before_return(reader, writer, stopped):
    try:
        while True:
            read_task = asyncio.create_task(reader.read(4096))  # error: TRF007:25
            wait_task = asyncio.create_task(stopped.wait())
            done, pending = await asyncio.wait([read_task, wait_task], return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                result = await task
                if result == b"":
                    stopped.set()
                    return
                writer.write(result)
                for other in pending:
                    other.cancel()
    except asyncio.CancelledError:
        return


# --- the twins: reported


async def sets_another_event(reader, writer, stopped, closed):
    try:
        while True:
            read_task = asyncio.create_task(reader.read(4096))  # error: TRF007:25
            wait_task = asyncio.create_task(stopped.wait())  # error: TRF007:25
            done, pending = await asyncio.wait([read_task, wait_task], return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                result = await task
                if result == b"":
                    return
                writer.write(result)
                for other in pending:
                    other.cancel()
    except asyncio.CancelledError:
        return
    finally:
        closed.set()


async def set_on_another_branch(reader, writer, stopped):
    try:
        while True:
            read_task = asyncio.create_task(reader.read(4096))  # error: TRF007:25
            wait_task = asyncio.create_task(stopped.wait())  # error: TRF007:25
            done, pending = await asyncio.wait([read_task, wait_task], return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                result = await task
                if result is None:
                    stopped.set()
                elif result == b"":
                    return
                writer.write(result)
                for other in pending:
                    other.cancel()
    except asyncio.CancelledError:
        return


async def set_after_the_try(reader, writer, stopped):
    try:
        while True:
            read_task = asyncio.create_task(reader.read(4096))  # error: TRF007:25
            wait_task = asyncio.create_task(stopped.wait())  # error: TRF007:25
            done, pending = await asyncio.wait([read_task, wait_task], return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                result = await task
                if result == b"":
                    return
                writer.write(result)
                for other in pending:
                    other.cancel()
    except asyncio.CancelledError:
        return
    stopped.set()


async def set_after_the_exit(reader, writer, stopped):
    while True:
        wait_task = asyncio.create_task(stopped.wait())  # error: TRF007:21
        read_task = asyncio.create_task(reader.read(4096))
        done, pending = await asyncio.wait([read_task, wait_task], return_when=asyncio.FIRST_COMPLETED)  # error: TRF005:31
        if read_task in done and read_task.result() == b"":
            return
        writer.write(read_task.result())
        stopped.set()
        await wait_task


async def set_before_the_spawn(reader, writer, stopped):
    first = asyncio.create_task(reader.read(1))
    writer.write(await first)
    while True:
        stopped.set()
        wait_task = asyncio.create_task(stopped.wait())  # error: TRF007:21
        read_task = asyncio.create_task(reader.read(4096))
        done, pending = await asyncio.wait([read_task, wait_task], return_when=asyncio.FIRST_COMPLETED)  # error: TRF005:31
        if read_task in done and read_task.result() == b"":
            return
        await wait_task



async def rebound_before_the_set(reader, writer, stopped, other):
    try:
        while True:
            read_task = asyncio.create_task(reader.read(4096))  # error: TRF007:25
            wait_task = asyncio.create_task(stopped.wait())  # error: TRF007:25
            done, pending = await asyncio.wait([read_task, wait_task], return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                result = await task
                if result == b"":
                    stopped = other
                    return
                writer.write(result)
                for leftover in pending:
                    leftover.cancel()
    except asyncio.CancelledError:
        return
    finally:
        stopped.set()


async def left_before_the_set(reader, writer, stopped, quick):
    try:
        while True:
            read_task = asyncio.create_task(reader.read(4096))  # error: TRF007:25
            wait_task = asyncio.create_task(stopped.wait())  # error: TRF007:25
            done, pending = await asyncio.wait([read_task, wait_task], return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                result = await task
                if result == b"":
                    return
                writer.write(result)
                for leftover in pending:
                    leftover.cancel()
    except asyncio.CancelledError:
        return
    finally:
        if quick:
            return
        stopped.set()


async def awaited_before_the_set(reader, writer, stopped):
    try:
        while True:
            read_task = asyncio.create_task(reader.read(4096))  # error: TRF007:25
            wait_task = asyncio.create_task(stopped.wait())  # error: TRF007:25
            done, pending = await asyncio.wait([read_task, wait_task], return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                result = await task
                if result == b"":
                    return
                writer.write(result)
                for leftover in pending:
                    leftover.cancel()
    except asyncio.CancelledError:
        return
    finally:
        await writer.wait_closed()
        stopped.set()
