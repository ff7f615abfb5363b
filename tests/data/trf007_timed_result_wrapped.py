"""``fut.result(timeout)`` of a ``run_coroutine_threadsafe`` future as the
argument of a call (``return bool(fut.result(timeout=...))``), in a ``try``
whose handler of the timeout returns, the timeout's class imported under another
name (``from concurrent.futures import TimeoutError as FuturesTimeoutError``):
the frame ends with the task running and unreferenced (apprise's XMPP keepalive
``send``, a miss of the thirty-seventh trial of issue 32).  The twins cancel the
future in the handler, or wait for ever; a handler of another class leaves the
timeout to unwind the frame (TRF003)."""
import asyncio
import contextlib
from concurrent.futures import TimeoutError as FuturesTimeoutError


class Adapter:
    async def _send_async(self, body):
        await asyncio.sleep(1)
        return body

    def send(self, body):
        coro = self._send_async(body)
        try:
            fut = asyncio.run_coroutine_threadsafe(coro, self._loop)  # error: TRF007:19
            return bool(fut.result(timeout=self.timeout))
        except FuturesTimeoutError:
            return False
        except Exception:
            with contextlib.suppress(Exception):
                coro.close()
            return False

    def send_plain_alias(self, body):
        try:
            fut = asyncio.run_coroutine_threadsafe(self._send_async(body), self._loop)  # error: TRF007:19
            return fut.result(timeout=self.timeout)
        except (ValueError, FuturesTimeoutError):
            return None

    def send_wrapped_twice(self, body):
        try:
            fut = asyncio.run_coroutine_threadsafe(self._send_async(body), self._loop)  # error: TRF007:19
            return str(bool(fut.result(5)))
        except asyncio.TimeoutError:
            return "timed out"

    def send_cancels(self, body):
        try:
            fut = asyncio.run_coroutine_threadsafe(self._send_async(body), self._loop)
            return bool(fut.result(timeout=self.timeout))
        except FuturesTimeoutError:
            fut.cancel()
            return False

    def send_waits_for_ever(self, body):
        try:
            fut = asyncio.run_coroutine_threadsafe(self._send_async(body), self._loop)
            return bool(fut.result())
        except FuturesTimeoutError:
            return False

    def send_other_handler(self, body):
        try:
            fut = asyncio.run_coroutine_threadsafe(self._send_async(body), self._loop)
            return bool(fut.result(timeout=self.timeout))  # error: TRF003:25
        except ValueError:
            return False

    def close(self):
        fut = asyncio.run_coroutine_threadsafe(self._send_async(None), self._loop)  # error: TRF007:15
        try:
            fut.result(timeout=2.0)
        except FuturesTimeoutError:
            pass

    def send_alias_shadowed(self, body, FuturesTimeoutError=KeyError):
        try:
            fut = asyncio.run_coroutine_threadsafe(self._send_async(body), self._loop)
            return fut.result(timeout=self.timeout)
        except FuturesTimeoutError:
            return None

    def send_unguarded_twice_wrapped(self, body):
        fut = asyncio.run_coroutine_threadsafe(self._send_async(body), self._loop)
        return str(bool(fut.result(timeout=self.timeout)))  # error: TRF003:25
