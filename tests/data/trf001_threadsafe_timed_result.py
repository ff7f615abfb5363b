"""``asyncio.run_coroutine_threadsafe(...).result(timeout)`` with no name for the
future: when the timeout comes first, ``result()`` raises and the future, the only
thing that held the task on the loop, is dropped while the task runs (databento's
``block_for_close()``, a miss of the eighteenth trial; issue 32's shape 7).  The
twins wait without a timeout (``result()``, ``timeout=None``), or keep the future."""
import asyncio
import concurrent.futures


class Client:
    def block_for_close(self, timeout=None):
        try:
            asyncio.run_coroutine_threadsafe(  # error: TRF001:13
                self._session.wait_for_close(), loop=self._loop
            ).result(timeout=timeout)
        except (concurrent.futures.TimeoutError, KeyboardInterrupt):
            self.terminate()

    def ask(self):
        return asyncio.run_coroutine_threadsafe(self._session.query(), self._loop).result(5)  # error: TRF001:16

    def check(self):
        return asyncio.run_coroutine_threadsafe(self._session.query(), self._loop).exception(5)  # error: TRF001:16

    def ask_without_timeout(self):
        return asyncio.run_coroutine_threadsafe(self._session.query(), self._loop).result()

    def ask_with_no_timeout(self):
        return asyncio.run_coroutine_threadsafe(self._session.query(), self._loop).result(timeout=None)

    def ask_and_cancel(self):
        future = asyncio.run_coroutine_threadsafe(self._session.query(), self._loop)
        try:
            return future.result(5)
        except concurrent.futures.TimeoutError:
            future.cancel()
            raise
