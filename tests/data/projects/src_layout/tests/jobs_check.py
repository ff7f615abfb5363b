"""A test module in no package: pkg is found under src/."""
from pkg.spawning import fire


async def job() -> None:
    pass


async def test_fire() -> None:
    fire(job())  # error: TRF001:5
    task = fire(job())
    await task
