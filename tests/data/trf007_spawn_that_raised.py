"""A handler of the ``try`` whose body ends with the statement that makes the
task runs only when that statement (or one before it) raised: the local was not
bound by it, so no task of it is pending at the handler's ``raise`` (telnetlib3's
blocking ``flush()``, a false alarm of the sixteenth trial of issue 32).  The
twins: a statement after the spawn in the body, whose exception leaves the task
running; and the task of an earlier statement of the body."""
import asyncio
import concurrent.futures


class Flusher:
    def __init__(self, loop, writer):
        self._loop = loop
        self._writer = writer

    def flush(self, timeout):
        coro = self._writer.drain()
        try:
            future = asyncio.run_coroutine_threadsafe(coro, self._loop)
        except RuntimeError:
            coro.close()
            raise
        try:
            future.result(timeout=timeout)
        except concurrent.futures.TimeoutError as exc:
            future.cancel()
            raise TimeoutError("flush timed out") from exc

    def flush_twin(self, timeout):
        coro = self._writer.drain()
        try:
            future = asyncio.run_coroutine_threadsafe(coro, self._loop)  # error: TRF007:22
            self._writer.note()  # may raise with the future pending
        except RuntimeError:
            coro.close()
            raise
        try:
            future.result(timeout=timeout)
        except concurrent.futures.TimeoutError as exc:
            future.cancel()
            raise TimeoutError("flush timed out") from exc

    def flush_earlier_twin(self, timeout):
        try:
            future = asyncio.run_coroutine_threadsafe(self._writer.drain(), self._loop)  # error: TRF007:22
            other = asyncio.run_coroutine_threadsafe(self._writer.close(), self._loop)  # (the last: silent)
        except RuntimeError:
            raise
        try:
            future.result(timeout=timeout)
            other.result(timeout=timeout)
        except concurrent.futures.TimeoutError as exc:
            future.cancel()
            other.cancel()
            raise TimeoutError("flush timed out") from exc


class Runner:
    # posthog's runner (a false alarm of the thirty-third trial's sweep): the spawn is
    # followed only by a ``break`` out of the loop that ends the body, so the handler runs
    # only when something before it raised
    def __init__(self, loop, lock):
        self._loop = loop
        self._lock = lock

    def run(self, coro):
        try:
            while True:
                with self._lock:
                    if self.ready():
                        try:
                            future = asyncio.run_coroutine_threadsafe(coro, self._loop)
                        except BaseException:
                            coro.close()
                            raise
                        break
        except BaseException:
            coro.close()
            raise
        return future.result()

    def run_twin(self, coro):
        try:
            while True:
                future = asyncio.run_coroutine_threadsafe(coro, self._loop)  # error: TRF007:26
                if self.ready():  # (may raise, and the loop takes another pass)
                    break
        except BaseException:
            coro.close()
            raise
        return future.result()

    def run_else_twin(self, coro):
        try:
            try:
                future = asyncio.run_coroutine_threadsafe(coro, self._loop)  # error: TRF007:26
            except RuntimeError:
                raise
            else:
                self.note()  # (runs after the spawn, and may raise)
        except BaseException:
            coro.close()
            raise
        return future.result()

    def run_finally_twin(self, coro):
        try:
            while True:
                try:
                    future = asyncio.run_coroutine_threadsafe(coro, self._loop)  # error: TRF007:30
                    break
                finally:
                    self.note()  # (runs on the way out, and may raise)
        except BaseException:
            coro.close()
            raise
        return future.result()

    def run_each_twin(self, coros):
        futures = []
        try:
            for coro in coros:
                futures.append(asyncio.run_coroutine_threadsafe(coro, self._loop))  # error: TRF007:32
        except BaseException:
            raise  # (the next pass's spawn raised, the earlier futures pending)
        for future in futures:
            future.result()

    def run_after_loop_twin(self, coro):
        try:
            while True:
                future = asyncio.run_coroutine_threadsafe(coro, self._loop)  # error: TRF007:26
                break
            self.note()  # (runs after the loop the break leaves, and may raise)
        except BaseException:
            coro.close()
            raise
        return future.result()

    def run_header_twin(self, coro):
        try:
            while True:
                if self.check(future := asyncio.run_coroutine_threadsafe(coro, self._loop)):  # error: TRF007:41
                    self.note()  # (the header's block runs after the spawn)
                break
        except BaseException:
            coro.close()
            raise
        return future.result()

    async def run_async_with_twin(self, work, session):
        try:
            while True:
                async with session:  # (its exit awaits: a cancellation may land there)
                    task = asyncio.create_task(work())  # error: TRF007:28
                    break
        except asyncio.CancelledError:
            raise
        await task

    def check(self, future):
        return future is not None

    def ready(self):
        return True

    def note(self):
        pass
