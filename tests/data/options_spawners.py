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



async def closes(server) -> None:
    server.close()  # never suspends


def handed_to_the_loop(reactor, server) -> None:
    # a project helper is not known to run its argument as the task: reported
    # whether it is called or handed on with the coroutine (asyncio's own, silent)
    spawn(closes(server))  # error: TRF001:5
    reactor.call_soon(spawn, closes(server))  # error: TRF001:23
    reactor.call_soon(asyncio.ensure_future, closes(server))
