"""A local collection of tasks handled only through a loop that may ``break``
handles the elements it visits, not the collection: those it leaves, pending,
die with the frame (aiotorrent's sequential download, a miss of the nineteenth
trial: only done tasks are taken, the loop breaks at the first pending one, and
the generator ends with the last ones running).  A loop target that rebinds the
task's own name (``for task in task_list:``) is the element in the loop's body,
not the task made before it.  Each reported case has a silent twin."""
import asyncio


async def piece(n):
    await asyncio.sleep(n)
    return n


async def download(numbers):
    task_list = []
    for n in numbers:
        task = asyncio.create_task(piece(n))  # error: TRF002:16
        task_list.append(task)
        for done in task_list:
            if not done.done():
                break
            task_list.remove(done)
            print(done.result())


async def download_all(numbers):
    task_list = []
    for n in numbers:
        task = asyncio.create_task(piece(n))
        task_list.append(task)
    for done in task_list:
        print(await done)


async def download_then_gather(numbers):
    task_list = []
    for n in numbers:
        task = asyncio.create_task(piece(n))
        task_list.append(task)
        for done in task_list:
            if not done.done():
                break
            task_list.remove(done)
            print(done.result())
    await asyncio.gather(*task_list)


async def download_same_name(numbers):
    task_list = []
    for n in numbers:
        task = asyncio.create_task(piece(n))  # error: TRF002:16
        task_list.append(task)
        for task in task_list:
            if not task.done():
                break
            task_list.remove(task)
            print(task.result())


async def download_same_name_all(numbers):
    task_list = []
    for n in numbers:
        task = asyncio.create_task(piece(n))
        task_list.append(task)
    for task in task_list:
        print(await task)


# The element the body sees is the loop's, not the task made before the loop.
async def first_of_others(others):
    task = asyncio.create_task(piece(1))  # error: TRF002:12
    for task in others:
        await task


async def first_of_others_kept(others):
    task = asyncio.create_task(piece(1))
    for other in others:
        await other
    await task


# A loop whose ``break`` ends the search and cancels every task first.
async def cancel_all(numbers):
    task_list = [asyncio.create_task(piece(n)) for n in numbers]
    for task in task_list:
        task.cancel()
    for task in task_list:
        if task.cancelled():
            break
