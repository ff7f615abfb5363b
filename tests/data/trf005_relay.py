"""A relay: ``asyncio.wait()`` on a local set in a ``while S:`` loop, whose
pending tasks stay in the set; the loop ends only when the set is empty, so the
pending set dropped in each pass drops nothing (telnetlib3's relay server, a
false alarm of the sixteenth trial of issue 32).  The twins leave the loop with
tasks still in the set, or wait on a set made anew in each pass."""
import asyncio


async def relay(reader, writer, read):
    client = asyncio.create_task(read(reader))
    server = asyncio.create_task(read(writer))
    waiting = {client, server}
    while waiting:
        done, _ = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
        while done:
            task = done.pop()
            waiting.remove(task)
            if task.result():
                waiting.add(asyncio.create_task(read(reader)))


async def relay_len(reader, writer, read):
    client = asyncio.create_task(read(reader))
    server = asyncio.create_task(read(writer))
    waiting = [client, server]
    while len(waiting):
        done, _ = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
        for task in done:
            waiting.remove(task)
            for inner in range(2):
                if inner:
                    break  # (the break of a loop inside it)


async def relay_stops(reader, writer, read, running):
    client = asyncio.create_task(read(reader))
    server = asyncio.create_task(read(writer))
    waiting = {client, server}
    while waiting and running():
        done, _ = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)  # error: TRF005:25
        waiting -= done


async def relay_breaks(reader, writer, read):
    client = asyncio.create_task(read(reader))
    server = asyncio.create_task(read(writer))
    waiting = {client, server}
    while waiting:
        done, _ = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)  # error: TRF005:25
        if client in done:
            break
        waiting -= done


async def relay_made_anew(reader, read):
    while True:
        waiting = {asyncio.create_task(read(reader)), asyncio.create_task(read(reader))}
        done, _ = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)  # error: TRF005:25
        if not done:
            return
