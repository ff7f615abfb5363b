"""TRF002 unkept-task-binding: a handle bound to a local that never leaves the frame."""
import asyncio
from collections import deque
from typing import Dict, List, Set

background: Set["asyncio.Task[None]"] = set()


async def job(n: int = 0) -> None:
    await asyncio.sleep(n)


async def never_used() -> None:
    task = asyncio.create_task(job())  # error: TRF002:12
    underscore = asyncio.ensure_future(job())  # error: TRF002:18
    _ = asyncio.create_task(job())  # error: TRF002:9


async def only_harmless_uses() -> None:
    task = asyncio.create_task(job())  # error: TRF002:12
    task.add_done_callback(print)
    task.set_name("worker")
    print(task.get_name(), task.done())
    if task:
        pass
    if task is not None and not task.cancelled():
        pass


async def chained_and_unpacked() -> None:
    first = second = asyncio.create_task(job())  # error: TRF002:22
    left, right = asyncio.create_task(job()), asyncio.create_task(job())  # error: TRF002:19, TRF002:47
    print(first is second, left is right)


async def annotated() -> None:
    task: "asyncio.Task[None]" = asyncio.create_task(job())  # error: TRF002:34
    del task


async def rebound_in_loop() -> None:
    for n in range(3):
        task = asyncio.create_task(job(n))  # error: TRF002:16
    await task


async def rebound_in_while() -> None:
    n = 0
    while n < 3:
        task = asyncio.create_task(job(n))  # error: TRF002:16
        n += 1
    await task


async def local_collections_never_awaited() -> None:
    tasks = [asyncio.create_task(job(n)) for n in range(3)]  # error: TRF002:14
    pending: List["asyncio.Task[None]"] = []
    for n in range(3):
        pending.append(asyncio.create_task(job(n)))  # error: TRF002:24
    by_name: Dict[str, "asyncio.Task[None]"] = {}
    by_name["a"] = asyncio.create_task(job())  # error: TRF002:20
    bag = set()
    bag.add(asyncio.create_task(job()))  # error: TRF002:13
    print(len(tasks), len(pending), len(by_name), len(bag))


async def result_does_not_finish() -> None:
    task = asyncio.create_task(job())  # error: TRF002:12
    if task.done():
        print(task.result(), task.exception())


async def gather_future_unkept() -> None:
    gathered = asyncio.gather(job(), job())  # error: TRF002:16
    print(gathered.done())


async def rebinding_loses_first() -> None:
    task = asyncio.create_task(job(1))  # error: TRF002:12
    task = asyncio.create_task(job(2))
    await task


async def walrus() -> None:
    if (task := asyncio.create_task(job())) is not None:  # error: TRF002:17
        print("started")


async def loop_param(loop: asyncio.AbstractEventLoop) -> None:
    handle = loop.create_task(job())  # error: TRF002:14
    handle.add_done_callback(print)


# ---- safe look-alikes: no finding ------------------------------------------
async def awaited() -> None:
    task = asyncio.create_task(job())
    await task


async def cancelled_in_finally() -> None:
    helper = asyncio.create_task(job())
    try:
        await job(2)
    finally:
        helper.cancel()


async def returned() -> "asyncio.Task[None]":
    task = asyncio.create_task(job())
    return task


async def yielded():
    task = asyncio.create_task(job())
    yield task


async def passed_to_unknown_call(registry) -> None:
    task = asyncio.create_task(job())
    registry.register(task)
    other = asyncio.create_task(job())
    print_and_keep(other)


def print_and_keep(task: object) -> None:
    background.add(task)  # type: ignore[arg-type]


async def captured() -> None:
    task = asyncio.create_task(job())

    def stop() -> None:
        task.cancel()

    asyncio.get_running_loop().call_later(5, stop)
    later = asyncio.create_task(job())
    asyncio.get_running_loop().call_soon(lambda: later.cancel())


class Holder:
    def __init__(self) -> None:
        self.task = None
        self.tasks: Set["asyncio.Task[None]"] = set()

    async def stored(self) -> None:
        task = asyncio.create_task(job())
        self.task = task
        other = asyncio.create_task(job())
        self.tasks.add(other)
        other.add_done_callback(self.tasks.discard)


async def global_name() -> None:
    global GLOBAL_TASK
    GLOBAL_TASK = asyncio.create_task(job())


async def nonlocal_name() -> None:
    task = None

    def start() -> None:
        nonlocal task
        task = asyncio.create_task(job())

    start()
    await asyncio.sleep(0)
    if task is not None:
        await task


async def collections_that_finish() -> None:
    tasks = [asyncio.create_task(job(n)) for n in range(3)]
    await asyncio.gather(*tasks)
    more = []
    for n in range(3):
        more.append(asyncio.create_task(job(n)))
    for task in more:
        task.cancel()
    by_key = {}
    by_key["a"] = asyncio.create_task(job())
    for task in by_key.values():
        await task
    everything = {asyncio.create_task(job())}
    await asyncio.wait(everything)


async def collection_returned():
    tasks = []
    tasks.append(asyncio.create_task(job()))
    return tasks


async def handle_in_loop_kept_each_time() -> None:
    for n in range(3):
        task = asyncio.create_task(job(n))
        background.add(task)
        task.add_done_callback(background.discard)
    for n in range(3):
        task = asyncio.create_task(job(n))
        await task


async def guarded_single_start() -> None:
    task = None
    for n in range(3):
        if task is None:
            task = asyncio.create_task(job(n))
    if task is not None:
        await task


async def loop_with_break() -> None:
    for n in range(3):
        task = asyncio.create_task(job(n))
        break
    await task


async def gather_future_awaited() -> None:
    gathered = asyncio.gather(job(), job())
    await gathered


async def alias_awaited() -> None:
    task = asyncio.create_task(job())
    same = task
    await same


async def wait_all_completed() -> None:
    first = asyncio.create_task(job())
    second = asyncio.create_task(job())
    await asyncio.wait([first, second])


async def branches() -> None:
    if background:
        task = asyncio.create_task(job(1))
    else:
        task = asyncio.create_task(job(2))
    await task


async def try_rebinding() -> None:
    task = asyncio.create_task(job(1))
    try:
        await job()
        task = asyncio.create_task(job(2))
    finally:
        await task


async def ensure_future_of_existing(fut: "asyncio.Future[None]") -> None:
    same = asyncio.ensure_future(fut)
    print(same)


async def task_group_handles() -> None:
    async with asyncio.TaskGroup() as tg:
        handle = tg.create_task(job())
    print(handle.result())


async def shielded_and_awaited() -> None:
    task = asyncio.create_task(job())
    background.add(task)
    await asyncio.shield(task)


async def wait_for_itself() -> None:
    task = asyncio.create_task(job())
    await asyncio.wait_for(task, timeout=1)


async def yielded_from_container():
    tasks = [asyncio.create_task(job())]
    for task in tasks:
        yield task


async def polled_until_done() -> None:
    task = asyncio.create_task(job())
    while not task.done():
        await asyncio.sleep(0.1)


def sync_main_runs_the_loop() -> None:
    loop = asyncio.new_event_loop()
    task = loop.create_task(job())
    loop.run_forever()


async def main_loops_forever() -> None:
    heartbeat = asyncio.create_task(job())
    while True:
        await asyncio.sleep(1)


async def loop_that_ends_does_not_hold() -> None:
    heartbeat = asyncio.create_task(job())  # error: TRF002:17
    while True:
        await asyncio.sleep(1)
        if background:
            break


def sync_callback_without_a_loop_run() -> None:
    task = asyncio.get_event_loop().create_task(job())  # error: TRF002:12
    task.add_done_callback(print)


async def handle_moved_into_a_list_each_pass(coros) -> None:
    drain = []
    for coro in coros:
        task = asyncio.get_running_loop().create_task(coro)
        drain.append(task)
    done = asyncio.gather(*drain)
    await done


async def conditional_spawn(eager: bool) -> None:
    task = asyncio.create_task(job()) if eager else None  # error: TRF002:12
    print(task is None)


async def gather_of_plain_futures_unkept() -> None:
    # a plain future runs nothing: dropping the gather of futures loses no task
    # (aiomisc's basic_config waits on gather(loop.create_future()) this way)
    loop = asyncio.get_running_loop()
    forever = asyncio.gather(loop.create_future(), asyncio.Future(), return_exceptions=True)
    forever.add_done_callback(print)


async def gather_of_a_future_and_a_coroutine_unkept() -> None:
    loop = asyncio.get_running_loop()
    mixed = asyncio.gather(loop.create_future(), job())  # error: TRF002:13
    mixed.add_done_callback(print)


class Tagged:
    async def tag_only(self) -> None:
        # an attribute set on the task keeps nothing (temporalio tags its tasks so)
        task = asyncio.create_task(job())  # error: TRF002:16
        setattr(task, "tag", "activation")
        print(getattr(task, "tag", None), hasattr(task, "tag"))
        await asyncio.sleep(1)

    async def set_on_self(self) -> None:
        task = asyncio.create_task(job())
        setattr(self, "task", task)
        await asyncio.sleep(1)


class Broadcaster:
    """An item only looked at (``tasks[0].done()``, ``print(tasks[-1])``)
    leaves the local collection only looked at: its tasks die with the frame
    (hbmqtt's $SYS broadcast, eleventh trial); the twins hand an item on."""

    def _publish(self, topic: str) -> "asyncio.Task[None]":
        return asyncio.create_task(job())

    def broadcast(self) -> None:
        tasks = deque()
        tasks.append(self._publish("uptime"))  # error: TRF002:22
        tasks.append(self._publish("clients"))  # error: TRF002:22
        while tasks and tasks[0].done():
            tasks.popleft()
        print(tasks[-1])

    def broadcast_kept(self, keep: "set[asyncio.Task[None]]") -> None:
        tasks = [self._publish("uptime"), self._publish("clients")]
        if not tasks[0].done():
            keep.add(tasks[0])

    def broadcast_cancelled(self) -> None:
        tasks = [self._publish("uptime")]
        tasks[0].cancel()


def result_of_an_item(loop: asyncio.AbstractEventLoop) -> None:
    # ``result()`` of an item waits for a threadsafe future, as of a name
    futures = [asyncio.run_coroutine_threadsafe(job(), loop)]
    print(futures[0].result())


async def polled_item() -> int:
    # the frame lives until the item polled is done, as for a name
    tasks = [asyncio.create_task(job())]
    while not tasks[0].done():
        await asyncio.sleep(0.1)
    return 1
