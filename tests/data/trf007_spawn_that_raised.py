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
