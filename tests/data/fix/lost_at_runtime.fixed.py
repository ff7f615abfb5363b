"""Run as a script: three workers wait on events only they hold; the collector
runs; then the events are set.  Without a reference the tasks are destroyed."""
import asyncio
import gc
import weakref
from typing import List

_background_tasks: "set[asyncio.Task[object]]" = set()

finished: List[int] = []
events: List["weakref.ref[asyncio.Event]"] = []


async def worker(number: int) -> None:
    event = asyncio.Event()
    events.append(weakref.ref(event))
    await event.wait()
    finished.append(number)


def start_workers() -> None:
    for number in range(3):
        worker_task = asyncio.create_task(worker(number))
        _background_tasks.add(worker_task)
        worker_task.add_done_callback(_background_tasks.discard)
        del worker_task


async def main() -> None:
    start_workers()
    await asyncio.sleep(0)
    gc.collect()
    for ref in events:
        event = ref()
        if event is not None:
            event.set()
    await asyncio.sleep(0.05)
    print(f"finished {len(finished)} of 3")


if __name__ == "__main__":
    asyncio.run(main())
