"""lib/ is a source root only because setup.cfg says so (taskref-src)."""
from tools.background import start


async def job() -> None:
    pass


async def main() -> None:
    start(job())  # error: TRF001:5
