"""A sync method that runs the loop itself on one branch (``loop.run_until_complete``)
and, on the other, waits on a ``run_coroutine_threadsafe`` future whose timeout it
swallows: the frame holds its locals while *it* runs the loop, but on the other
branch the loop runs in another thread, and the future is dropped with its task
still running (streamlit-webrtc's ``WebRtcWorker.stop()``, a miss of the
twenty-eighth trial of issue 32); also after every run, in no loop around both
(an early ``return`` after the run, a handler of the run's ``RuntimeError``).  The
twins: a future made where the loop may run after it in this frame (after it in the
text, or in a later pass of a loop around both: not judged, the frame holds it
while the loop runs), and tasks of the loop this frame runs."""
import asyncio
import concurrent.futures
import logging


class Worker:
    def stop(self, timeout=1.0):
        loop = self._loop
        if loop.is_running():
            try:
                close_future = asyncio.run_coroutine_threadsafe(self.pc.close(), loop=loop)  # error: TRF007:32
                close_future.result(timeout=timeout)
            except concurrent.futures.TimeoutError:
                logging.warning("Timed out while closing the peer connection")
        else:
            try:
                loop.run_until_complete(self.pc.close())
            except Exception:
                logging.warning("Failed to close the peer connection")

    def stop_then_run(self, timeout=1.0):
        future = asyncio.run_coroutine_threadsafe(self.pc.close(), self._other_loop)
        try:
            future.result(timeout=timeout)
        except concurrent.futures.TimeoutError:
            logging.warning("Timed out")
        self._loop.run_until_complete(self.drain())  # (the frame runs a loop after it: not judged)

    def run_own_loop(self):
        loop = asyncio.new_event_loop()
        task = loop.create_task(self.serve())  # held by the frame while it runs the loop
        loop.run_forever()
        return task.done()

    def run_on_one_branch(self, blocking):
        loop = asyncio.new_event_loop()
        if blocking:
            task = loop.create_task(self.serve())
            loop.run_until_complete(task)
        else:
            loop.run_until_complete(self.drain())


def stop_or_return(loop, timeout=1.0):
    if not loop.is_running():
        loop.run_until_complete(close())
        return
    future = asyncio.run_coroutine_threadsafe(close(), loop)  # error: TRF007:14
    try:
        future.result(timeout=timeout)
    except concurrent.futures.TimeoutError:
        logging.warning("Timed out")


def run_or_send(loop, timeout=1.0):
    try:
        loop.run_until_complete(close())
    except RuntimeError:  # the loop runs in another thread
        future = asyncio.run_coroutine_threadsafe(close(), loop)  # error: TRF007:18
        try:
            future.result(timeout=timeout)
        except concurrent.futures.TimeoutError:
            logging.warning("Timed out")


def pump(loop, ticks):
    future = None
    for _ in range(ticks):
        if future is None:
            future = asyncio.run_coroutine_threadsafe(close(), loop)
        else:
            loop.run_until_complete(asyncio.sleep(0.1))  # (a later pass runs it: the frame holds it)
    return future is not None and future.done()


async def close():
    await asyncio.sleep(1)
