import asyncio
import unittest


async def job() -> int:
    await asyncio.sleep(1)
    return 1


def report(future: "asyncio.Future[int]") -> None:
    print(future.result())


async def main() -> None:
    # report when done
    asyncio.ensure_future(job()).add_done_callback(report)  # a comment
    print(asyncio.create_task(job()))


class SemaphoreTest(unittest.TestCase):
    def test_acquire(self) -> None:
        self.assertTrue(asyncio.ensure_future(job()).done())
