"""TRF003 stays silent where the timeout cannot unwind the frame with the task
pending: a handler in a loop catches it and the loop goes on (gns3-server's
telnet server writes to each client under ``wait_for`` in a ``try`` with a bare
``except``), so the local still holds the task and what becomes of it is for
the rules of the paths to tell (TRF007); and under ``if task in done:``, where
``done`` is the set of finished tasks ``asyncio.wait()`` returned, the task is
done (aiosmpplib's keeper).  The others are reported."""
import asyncio


async def serve(reader, clients):
    read = asyncio.ensure_future(reader.read(100))
    while True:
        data = await read
        read = asyncio.ensure_future(reader.read(100))
        for client in clients:
            try:
                client.write(data)
                await asyncio.wait_for(client.drain(), timeout=10)
            except:  # noqa: E722
                client.close()


async def keeper(self):
    while True:
        sleep_task = asyncio.create_task(asyncio.sleep(self.interval))
        event_task = asyncio.create_task(self.received.wait())
        done, pending = await asyncio.wait({sleep_task, event_task}, return_when=asyncio.FIRST_COMPLETED)
        if sleep_task in done:
            await asyncio.wait_for(event_task, self.timeout)
        else:
            await self.stop(sleep_task)


# --- reported


async def not_caught(reader, client):
    read = asyncio.ensure_future(reader.read(100))
    await asyncio.wait_for(client.drain(), timeout=10)  # error: TRF003:11
    await read


async def caught_then_returns(reader, client):
    read = asyncio.ensure_future(reader.read(100))
    try:
        await asyncio.wait_for(client.drain(), timeout=10)  # error: TRF003:15
    except asyncio.TimeoutError:
        return None
    await read


async def in_pending(self):
    sleep_task = asyncio.create_task(asyncio.sleep(self.interval))
    event_task = asyncio.create_task(self.received.wait())
    done, pending = await asyncio.wait({sleep_task, event_task}, return_when=asyncio.FIRST_COMPLETED)
    if sleep_task in pending:
        await asyncio.wait_for(event_task, self.timeout)  # error: TRF003:15
    await sleep_task
