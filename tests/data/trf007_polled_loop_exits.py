"""A task polled by ``while not task.done():``: the frame holds it while the
loop runs, and the loop ends only when it is done; but an explicit way out
of the loop's body leaves it pending (pyroute2's DHCP receiver, a miss of the
nineteenth trial: ``return`` on a network error inside the poll loop).  Each
reported case has a silent twin."""
import asyncio


async def wait_for_off():
    await asyncio.sleep(10)


async def receive(sock):
    off = asyncio.create_task(wait_for_off())  # error: TRF007:11
    while not off.done():
        msg = await sock.get()
        if msg is None:
            return
        print(msg)


async def receive_cancelled(sock):
    off = asyncio.create_task(wait_for_off())
    while not off.done():
        msg = await sock.get()
        if msg is None:
            off.cancel()
            return
        print(msg)


async def receive_raises(sock):
    off = asyncio.create_task(wait_for_off())  # error: TRF007:11
    while not off.done():
        try:
            msg = await sock.get()
        except OSError as err:
            if err.errno == 100:
                return
            raise
        print(msg)


async def receive_to_the_end(sock):
    off = asyncio.create_task(wait_for_off())
    while not off.done():
        msg = await sock.get()
        print(msg)
    return off.result()


async def receive_polled_done(sock):
    off = asyncio.create_task(wait_for_off())
    while not off.done():
        msg = await sock.get()
        if off.done():
            return
        print(msg)


# ``while not (off.done() and queue.empty()):`` (pyroute2's DHCP sender) and
# ``while not off.done() or not queue.empty():`` end the loop only once ``off``
# is done: polls of it too, and the ``return`` inside leaves it pending.
async def send(queue, sock):
    off = asyncio.create_task(wait_for_off())  # error: TRF007:11
    while not (off.done() and queue.empty()):
        getter = asyncio.create_task(queue.get())
        done, pending = await asyncio.wait((off, getter), return_when=asyncio.FIRST_COMPLETED)
        if getter in pending:
            getter.cancel()
            continue
        if not await sock.send(getter.result()):
            return


async def send_to_the_end(queue, sock):
    off = asyncio.create_task(wait_for_off())
    while not (off.done() and queue.empty()):
        getter = asyncio.create_task(queue.get())
        done, pending = await asyncio.wait((off, getter), return_when=asyncio.FIRST_COMPLETED)
        if getter in pending:
            getter.cancel()
            continue
        await sock.send(getter.result())


async def send_or(queue, sock):
    off = asyncio.create_task(wait_for_off())  # error: TRF007:11
    while not off.done() or not queue.empty():
        if not await sock.send(await queue.get()):
            return


async def send_or_to_the_end(queue, sock):
    off = asyncio.create_task(wait_for_off())
    while not off.done() or not queue.empty():
        await sock.send(await queue.get())


# ``while not (off.done() or stopping):`` may end with ``off`` pending: no poll.
async def send_until_stopped(queue, sock, stopping):
    off = asyncio.create_task(wait_for_off())  # error: TRF002:11
    while not (off.done() or stopping):
        await sock.send(await queue.get())
