"""Helpers reached through star re-exports (issue 31, item 8)."""
import pkg
from pkg import start


async def job():
    pass


async def main():
    start(job())  # error: TRF001:5
    pkg.start(job())  # error: TRF001:5
    kept = start(job())
    await kept
    # not re-exported: __all__ leaves it out, and a leading underscore does
    pkg.detach(job())
    pkg._start_quietly(job())
