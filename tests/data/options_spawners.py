# flake8-args: --taskref-spawners=myapp.tasks.spawn,helpers.fire --taskref-loop-names=ioloop,reactor
"""--taskref-spawners adds project helpers; --taskref-loop-names replaces the loop names."""
import asyncio

import helpers  # type: ignore[import-not-found]
from myapp.tasks import spawn  # type: ignore[import-not-found]


async def job() -> None:
    await asyncio.sleep(1)


async def project_helpers() -> None:
    spawn(job())  # error: TRF001:5
    helpers.fire(job())  # error: TRF001:5
    kept = spawn(job())  # error: TRF002:12
    print(kept.done())


async def loop_names(ioloop, reactor, loop) -> None:
    ioloop.create_task(job())  # error: TRF001:5
    reactor.create_task(job())  # error: TRF001:5
    loop.create_task(job())  # the default names are replaced: not a loop any more

