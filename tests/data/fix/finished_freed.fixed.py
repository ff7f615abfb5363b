"""A loop stopped by the report of a finished task's exception (issue 33): the
fix must let the task go once it is done, as the original did."""
import asyncio

_background_tasks: "set[asyncio.Task[object]]" = set()


async def main() -> None:
    raise RuntimeError("boom")


async def main_wrapper() -> None:
    await main()


def run() -> None:
    loop = asyncio.new_event_loop()
    loop.set_exception_handler(lambda loop, context: loop.stop())
    main_wrapper_task = loop.create_task(main_wrapper())
    _background_tasks.add(main_wrapper_task)
    main_wrapper_task.add_done_callback(_background_tasks.discard)
    del main_wrapper_task
    loop.run_forever()
    loop.close()


def run_printing(message: str) -> None:
    loop = asyncio.new_event_loop()
    loop.set_exception_handler(lambda loop, context: loop.stop())
    main_wrapper_task = loop.create_task(main_wrapper())
    _background_tasks.add(main_wrapper_task)
    main_wrapper_task.add_done_callback(_background_tasks.discard)
    print(main_wrapper_task.get_name(), message)
    del main_wrapper_task
    loop.run_forever()
    loop.close()
