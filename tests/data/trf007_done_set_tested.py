"""An exit under a test of what an ``asyncio.wait()`` of the task and one other
awaitable found done (``fut = done.pop()``, ``if fut is self._logged_in: ...
else: return False``; ``if done:`` of a wait of the task alone): on that branch
the task may be the one done (berconpy's ``wait_for_login``, a false alarm of
the thirty-seventh trial's sweep of issue 32).  The twins test nothing of the
wait, or wait on three awaitables: still reported."""
import asyncio


class Connection:
    async def wait_for_login(self):
        close_task = asyncio.create_task(self._close_event.wait())
        done, _ = await asyncio.wait((self._is_logged_in, close_task), return_when=asyncio.FIRST_COMPLETED)
        fut = done.pop()
        if fut is self._is_logged_in:
            close_task.cancel()
            return self._is_logged_in.result()
        else:
            return False

    async def wait_alone(self, coro, timeout):
        task = asyncio.create_task(coro)
        done, pending = await asyncio.wait([task], timeout=timeout)
        if done:
            return done.pop().result()
        task.cancel()
        return None

    async def wait_untested(self):
        close_task = asyncio.create_task(self._close_event.wait())  # error: TRF007:22
        done, _ = await asyncio.wait((self._is_logged_in, close_task), return_when=asyncio.FIRST_COMPLETED)
        if self.closing:
            return False
        close_task.cancel()
        return done

    async def wait_of_three(self):
        close_task = asyncio.create_task(self._close_event.wait())  # error: TRF007:22
        done, _ = await asyncio.wait(
            (self._is_logged_in, self._kicked, close_task), return_when=asyncio.FIRST_COMPLETED)
        fut = done.pop()
        if fut is self._is_logged_in:
            close_task.cancel()
            return True
        else:
            return False

    async def other_in_done(self, reader):
        wait_task = asyncio.create_task(self._close_event.wait())  # error: TRF007:21
        read_task = asyncio.create_task(reader.read(4096))
        done, pending = await asyncio.wait([read_task, wait_task], return_when=asyncio.FIRST_COMPLETED)  # error: TRF005:31
        if read_task in done:
            return read_task.result()
        await wait_task
        return None

    async def not_done_then_raise(self, coro):
        task = asyncio.create_task(coro)  # error: TRF007:16
        done, pending = await asyncio.wait([task], timeout=5)
        if not done:
            raise TimeoutError("not done")
        return task

    async def not_done_else(self, coro):
        task = asyncio.create_task(coro)
        done, pending = await asyncio.wait([task], timeout=5)
        if not done:
            task.cancel()
            raise TimeoutError("not done")
        else:
            return None

    async def popped_is_other_body(self):
        close_task = asyncio.create_task(self._close_event.wait())  # error: TRF007:22
        done, _ = await asyncio.wait((self._is_logged_in, close_task), return_when=asyncio.FIRST_COMPLETED)
        fut = done.pop()
        if fut is self._is_logged_in:
            return self._is_logged_in.result()
        close_task.cancel()
        return False

    async def popped_is_not_other(self):
        close_task = asyncio.create_task(self._close_event.wait())
        done, _ = await asyncio.wait((self._is_logged_in, close_task), return_when=asyncio.FIRST_COMPLETED)
        fut = done.pop()
        if fut is not self._is_logged_in:
            return False
        close_task.cancel()
        return self._is_logged_in.result()

    async def popped_beside_starred(self, waiters):
        close_task = asyncio.create_task(self._close_event.wait())  # error: TRF007:22
        done, _ = await asyncio.wait([*waiters, close_task], return_when=asyncio.FIRST_COMPLETED)
        fut = done.pop()
        if fut is waiters[0]:
            close_task.cancel()
            return True
        else:
            return False

    async def done_and_flag(self, coro, flag):
        task = asyncio.create_task(coro)
        done, pending = await asyncio.wait([task], timeout=5)
        if done and flag:
            return 1
        task.cancel()
        return None

    async def done_and_flag_else(self, coro, flag):
        task = asyncio.create_task(coro)  # error: TRF007:16
        done, pending = await asyncio.wait([task], timeout=5)
        if done and flag:
            task.cancel()
            return 1
        else:
            return None

    async def sized(self, coro):
        task = asyncio.create_task(coro)
        done, pending = await asyncio.wait([task], timeout=5)
        if len(done) > 0:
            return 1
        if len(done) == 0:
            task.cancel()
        return None

    async def sized_empty_then_leave(self, coro):
        task = asyncio.create_task(coro)  # error: TRF007:16
        done, pending = await asyncio.wait([task], timeout=5)
        if len(done) == 0:
            raise TimeoutError("not done")
        task.cancel()
        return done

    async def done_or_flag(self, coro, flag):
        task = asyncio.create_task(coro)  # error: TRF007:16
        done, pending = await asyncio.wait([task], timeout=5)
        if done or flag:
            return 1
        task.cancel()
        return None
