"""TRF004 shield-unkept-task: asyncio.shield() of a task nobody else keeps."""
import asyncio
from typing import Any, Callable, Set

background: Set["asyncio.Task[None]"] = set()


async def job() -> None:
    await asyncio.sleep(1)


class Saver:
    async def save(self) -> None:
        await asyncio.sleep(1)

    def helper(self) -> "asyncio.Future[None]":
        return asyncio.get_running_loop().create_future()

    async def shield_coroutine_method(self) -> None:
        await asyncio.shield(self.save())  # error: TRF004:15

    async def shield_future_from_unknown_method(self) -> None:
        await asyncio.shield(self.helper())


async def shield_new_task() -> None:
    await asyncio.shield(asyncio.create_task(job()))  # error: TRF004:11


async def shield_coroutine() -> None:
    await asyncio.shield(job())  # error: TRF004:11


async def shield_local_handle() -> None:
    task = asyncio.create_task(job())
    await asyncio.shield(task)  # error: TRF004:11


async def shield_local_handle_in_handler() -> None:
    task = asyncio.create_task(job())
    try:
        await asyncio.shield(task)  # error: TRF004:15
    except asyncio.TimeoutError:
        await task


# ---- safe look-alikes: no finding ------------------------------------------
async def shield_kept_handle() -> None:
    task = asyncio.create_task(job())
    background.add(task)
    task.add_done_callback(background.discard)
    await asyncio.shield(task)


async def shield_then_finish_on_cancel() -> None:
    task = asyncio.create_task(job())
    try:
        await asyncio.shield(task)
    except asyncio.CancelledError:
        await task
        raise


async def shield_unknown(fut: "asyncio.Future[None]", make) -> None:
    await asyncio.shield(fut)
    await asyncio.shield(make())


class Keeper:
    def __init__(self) -> None:
        self.task = None

    async def run(self) -> None:
        self.task = asyncio.create_task(job())
        await asyncio.shield(self.task)


async def shield_of_asyncio_coroutines(fn: "Callable[[], None]") -> None:
    # (a task that only runs ``to_thread`` is held by the executor's thread while it runs)
    await asyncio.shield(asyncio.to_thread(fn))
    await asyncio.shield(asyncio.sleep(1))  # error: TRF004:11
    local = asyncio.shield(asyncio.to_thread(fn))
    await local
    worker = asyncio.create_task(asyncio.to_thread(fn))
    await asyncio.shield(worker)
    asyncio.create_task(asyncio.to_thread(fn))
    asyncio.create_task(to_thread_then_wait(fn))  # error: TRF001:5


async def to_thread_then_wait(fn: "Callable[[], None]") -> None:
    await asyncio.to_thread(fn)
    await asyncio.sleep(1)


async def shield_of_asyncio_coroutine_stored(fn: "Callable[[], None]") -> "asyncio.Future[None]":
    return asyncio.shield(asyncio.to_thread(fn))


# A local that holds the coroutine, not a task: the shield wraps it in a new task that
# nothing keeps (jupyter-server-documents' autosave, a miss of the twenty-ninth trial).
class AutoSave:
    async def save(self) -> None:
        await asyncio.sleep(1)

    async def watch(self) -> None:
        while True:
            try:
                await asyncio.sleep(1)
                save_task = self.save()
                await asyncio.shield(save_task)  # error: TRF004:23
            except asyncio.CancelledError:
                break

    async def watch_asyncio(self) -> None:
        pause = asyncio.sleep(1)
        await asyncio.shield(pause)  # error: TRF004:15

    async def watch_task(self) -> None:
        save_task = asyncio.ensure_future(self.save())
        self.pending = save_task
        await asyncio.shield(save_task)  # (a task, kept)

    async def watch_rebound(self, fast: bool) -> None:
        save_task = self.save()
        if fast:
            save_task = self.pending  # (bound twice: not followed)
        await asyncio.shield(save_task)

    async def watch_plain(self) -> None:
        value = self.make()
        await asyncio.shield(value)  # (a plain method's result: a future, maybe)

    def make(self) -> "asyncio.Future[None]":
        return asyncio.get_running_loop().create_future()


# A coroutine method of an asyncio primitive that a local or an attribute is written
# down as, or made as (jupyter-nbmodel-client's ``shield(messages_queue.join())``, a
# miss of the twenty-ninth trial).
class Flusher:
    def __init__(self) -> None:
        self._queue: "asyncio.Queue[bytes]" = asyncio.Queue()
        self._done = asyncio.Event()

    async def close(self, timeout: float) -> None:
        messages: "asyncio.Queue[bytes]" = asyncio.Queue()
        try:
            await asyncio.wait_for(asyncio.shield(messages.join()), timeout)  # error: TRF004:36
        except asyncio.TimeoutError:
            pass

    async def drain(self, pending: "asyncio.Queue[int]", other) -> None:
        await asyncio.shield(self._queue.join())  # error: TRF004:15
        await asyncio.shield(self._done.wait())  # error: TRF004:15
        await asyncio.shield(pending.get())  # error: TRF004:15
        await asyncio.shield(other.join())  # (a receiver of no known class)


# The coroutine methods of an asyncio subprocess (aio-fluid's terminate(), a miss of the
# thirty-second trial): a parameter written down as one, or a local made by an awaited
# asyncio.create_subprocess_exec/shell() and bound once.
async def terminate(process: asyncio.subprocess.Process, grace: float) -> None:
    process.terminate()
    try:
        await asyncio.wait_for(asyncio.shield(process.wait()), grace)  # error: TRF004:32
    except asyncio.TimeoutError:
        process.kill()


async def run_shell(cmd: str) -> bytes:
    proc = await asyncio.create_subprocess_shell(cmd)
    out, _ = await asyncio.shield(proc.communicate())  # error: TRF004:20
    return out


async def rebound_process(cmd: str, other) -> None:
    proc = await asyncio.create_subprocess_shell(cmd)
    if cmd:
        proc = other
    await asyncio.shield(proc.wait())  # (bound twice: no known class)


async def kept_process(cmd: str) -> None:
    proc = await asyncio.create_subprocess_shell(cmd)
    waiter = asyncio.ensure_future(proc.wait())
    background.add(waiter)
    await asyncio.shield(waiter)


async def walrus_in_the_call(cmd: str, make: Callable[[], Any]) -> None:
    child = await asyncio.create_subprocess_exec(cmd, stdin=(pipe := make()))  # (``pipe``: anything)
    await asyncio.shield(pipe.wait())
    queue = asyncio.Queue((size := make()))
    await asyncio.shield(size.join())
    await child.wait()
    await queue.join()


async def submodule_spelling(cmd: str) -> None:
    proc = await asyncio.subprocess.create_subprocess_exec(cmd)
    await asyncio.shield(proc.wait())  # error: TRF004:11


async def gate_after_wait(work: Callable[[], Any]) -> Any:
    # praisonaiagents' goal gate (a false alarm of the thirty-fifth trial's sweep): the handler
    # runs only once the task is done (a cancelled wait on a task returns when the task does)
    task = asyncio.ensure_future(work())
    try:
        return await task
    except asyncio.CancelledError:
        try:
            await asyncio.shield(task)
        except Exception:
            pass
        raise


async def gate_after_other_wait(work: Callable[[], Any]) -> Any:
    task = asyncio.ensure_future(work())
    try:
        await asyncio.sleep(1)  # (the cancellation may land here, the task pending)
        return await task
    except asyncio.CancelledError:
        await asyncio.shield(task)  # error: TRF004:15
        raise


async def gate_rebound_twin(work: Callable[[], Any], retry: Callable[[], Any]) -> Any:
    task = asyncio.ensure_future(work())
    try:
        return await task
    except asyncio.CancelledError:
        task = asyncio.ensure_future(retry())  # (another task, pending)
        await asyncio.shield(task)  # error: TRF004:15
        raise


async def gate_gather_twin(work: Callable[[], Any], other: Callable[[], Any]) -> Any:
    task = asyncio.gather(work(), other())
    try:
        return await task
    except asyncio.CancelledError:
        await asyncio.shield(task)  # error: TRF004:15
        raise


async def gate_augmented_twin(work: Callable[[], Any], key: Callable[[], Any], totals: Any) -> Any:
    task = asyncio.ensure_future(work())
    try:
        totals[await key()] += await task  # (the target's wait comes first)
    except asyncio.CancelledError:
        await asyncio.shield(task)  # error: TRF004:15
        raise


async def gate_closed_twin(work: Callable[[], Any]) -> Any:
    task = asyncio.ensure_future(work())
    try:
        return await task
    except BaseException:  # (also the GeneratorExit of a closed coroutine, the task pending)
        await asyncio.shield(task)  # error: TRF004:15
        raise
