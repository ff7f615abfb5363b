"""``fut.result(timeout)`` of a ``run_coroutine_threadsafe`` future in a ``try``
whose handler of the timeout goes on past it (``except Exception: pass``), with
nothing after it cancelling or keeping the future: the frame ends with the task
running and unreferenced (telnetlib3's blocking ``_cleanup()`` and
``shutdown()``, misses of the sixteenth trial of issue 32).  The twins cancel it
in the handler, in a ``finally`` or after the ``try``, wait in a loop, or keep it."""
import asyncio
import concurrent.futures
import logging


class Client:
    def cleanup(self):
        if self._loop.is_running():
            future = asyncio.run_coroutine_threadsafe(self._async_cleanup(), self._loop)  # error: TRF007:22
            try:
                future.result(timeout=2.0)
            except Exception:
                pass  # cleanup should not raise

    def cleanup_then_return(self):
        future = asyncio.run_coroutine_threadsafe(self._async_cleanup(), self._loop)  # error: TRF007:18
        try:
            future.result(2.0)
        except concurrent.futures.TimeoutError:
            logging.warning("cleanup timed out")
        return self._closed

    def cleanup_handler_cancels(self):
        future = asyncio.run_coroutine_threadsafe(self._async_cleanup(), self._loop)
        try:
            future.result(timeout=2.0)
        except Exception:
            future.cancel()

    def cleanup_finally_cancels(self):
        future = asyncio.run_coroutine_threadsafe(self._async_cleanup(), self._loop)
        try:
            future.result(timeout=2.0)
        except Exception:
            pass
        finally:
            future.cancel()

    def cleanup_cancels_after(self):
        future = asyncio.run_coroutine_threadsafe(self._async_cleanup(), self._loop)
        try:
            future.result(timeout=2.0)
        except Exception:
            pass
        if not future.done():
            future.cancel()

    def cleanup_keeps(self):
        future = asyncio.run_coroutine_threadsafe(self._async_cleanup(), self._loop)
        self._pending = future
        try:
            future.result(timeout=2.0)
        except Exception:
            pass

    def cleanup_retries(self, attempts):
        future = asyncio.run_coroutine_threadsafe(self._async_cleanup(), self._loop)
        for _ in range(attempts):
            try:
                future.result(timeout=2.0)
                break
            except Exception:
                continue  # (a loop: not followed)

    def cleanup_for_ever(self):
        future = asyncio.run_coroutine_threadsafe(self._async_cleanup(), self._loop)
        try:
            future.result()  # no timeout: it waits until the task is done
        except Exception:
            pass

    async def _async_cleanup(self):
        await asyncio.sleep(1)
