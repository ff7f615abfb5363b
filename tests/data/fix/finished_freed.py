"""A loop stopped by the report of a finished task's exception (issue 33): the
fix must let the task go once it is done, as the original did."""
import asyncio


async def main() -> None:
    raise RuntimeError("boom")


async def main_wrapper() -> None:
    await main()


def run() -> None:
    loop = asyncio.new_event_loop()
    loop.set_exception_handler(lambda loop, context: loop.stop())
    loop.create_task(main_wrapper())
    loop.run_forever()
    loop.close()


def run_printing(message: str) -> None:
    loop = asyncio.new_event_loop()
    loop.set_exception_handler(lambda loop, context: loop.stop())
    print(loop.create_task(main_wrapper()).get_name(), message)
    loop.run_forever()
    loop.close()
