"""Calls of helpers of another module that keep their task only when a parameter
says so (issue 32): judged by the argument each call gives."""
from typing import Any

from .. import tasks
from ..tasks import Runner, run_to_end, spawn, spawn_again, start_later


async def job() -> None:
    pass


async def start(flag: bool, runner: Runner) -> None:
    spawn(job())  # error: TRF001:5
    tasks.spawn(job(), False)  # error: TRF001:5
    runner.run(job())  # error: TRF001:5
    waiting = spawn(job(), keep_ref=False)  # error: TRF002:15
    waiting.add_done_callback(print)
    spawn(job(), keep_ref=True)
    spawn(job(), keep_ref=flag)
    tasks.spawn(job(), True)
    runner.run(job(), detached=False)
    runner.run(job(), detached=flag)
    spawn_again(job())
    kept: Any = spawn(job())
    await kept
    await start_later(job(), keep_ref=True)
    await start_later(job())
    await run_to_end(job())
