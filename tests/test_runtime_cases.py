"""The shared reproductions (tests/data/cases) driven at runtime: which static
findings of broken_service.py does ``--taskref-gc`` confirm, and on which schedule?

Each scenario runs a service the way a small test would, under the plugin's
:class:`Watch` (what ``--taskref-gc`` does for a test), and lists the lost tasks
as (line that created it, code and line of the finding it confirms).  The
services' loops sleep (``asyncio.sleep``): a sleeping task is held by the loop's
timer, so it is never collected, lost or not.  The "waiting" scenarios replace
the awaited thing with an event only the task holds (the production shape: a
queue, a socket read or a future nobody else keeps); the receiver needs its
caller cancelled while the encode task runs (the timeout, sooner).
"""
from __future__ import annotations

import asyncio
import gc
import importlib.util
import time
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, List, Optional, Tuple

import pytest

from flake8_taskref.runtime import attribution
from flake8_taskref.runtime import watch as runtime

CASES = Path(__file__).parent / "data" / "cases"
ROOT = Path(__file__).parent.parent
Lost = Tuple[int, Optional[Tuple[str, int]]]


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"taskref_case_{name}", CASES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


async def _own_event(*args: Any) -> None:
    """Waits on an event only this coroutine holds."""
    await asyncio.Event().wait()


def _watched(scenario: Callable[[], Any], name: str) -> List[Lost]:
    """Run ``scenario`` as the plugin runs a test; the lost tasks it reports."""
    gc.collect()  # nothing left over from an earlier scenario
    watch = runtime.Watch()
    keep = None
    watch.start()
    try:
        keep = scenario()  # what the test still holds at teardown
        watch.collect()
    finally:
        watch.stop()
    del keep
    gc.collect()  # the scenario's objects die outside the watch
    attributor = attribution.Attributor(str(ROOT))
    lost: List[Lost] = []
    for report in watch.take():
        assert report.kind == runtime.DESTROYED
        site, helpers = attributor.spawn_site(report.frames())
        assert site is not None and site[0] == str(CASES / f"{name}.py"), site
        confirmed = attributor.confirms(site, helpers)
        lost.append((site[1], None if confirmed is None else (confirmed[2], confirmed[1])))
    return sorted(lost)


def _dispatcher(module: ModuleType, waiting: bool) -> Callable[[], Any]:
    cls = module.RankDispatcher
    if waiting:
        cls = type("Waiting", (cls,), dict.fromkeys(
            ["_collect_results", "_watch_ranks", "_expire_mappings"], _own_event))

    def scenario() -> Any:
        dispatcher = cls(2)

        async def main() -> None:
            dispatcher.start()
            await asyncio.sleep(0.01)

        asyncio.run(main())
        return dispatcher

    return scenario


def _registry(module: ModuleType, waiting: bool) -> Callable[[], Any]:
    cls = module.RegistryServer
    if waiting:
        cls = type("Waiting", (cls,), {"_expire_rooms": _own_event})

    def scenario() -> Any:
        server = cls()
        server._thread.start()
        while server._loop is None or not server._loop.is_running():
            time.sleep(0.001)
        time.sleep(0.01)
        server._loop.call_soon_threadsafe(server._loop.stop)
        server._thread.join()
        server._loop.close()
        return server

    return scenario


def _receiver(module: ModuleType, waiting: bool) -> Callable[[], Any]:
    cls = module.EncodeReceiver
    if waiting:
        cls = type("Waiting", (cls,), {"_encode": _own_event})

    def scenario() -> Any:
        receiver = cls()

        async def main() -> None:
            arrival = asyncio.get_running_loop().create_future()
            handling = asyncio.ensure_future(receiver.handle("request", arrival))
            await asyncio.sleep(0.01)
            handling.cancel()  # the caller gives up (as the timeout would, later)
            with pytest.raises(asyncio.CancelledError):
                await handling

        asyncio.run(main())
        return receiver

    return scenario


SCENARIOS = {"dispatcher": _dispatcher, "registry": _registry, "receiver": _receiver}

# broken_service.py: TRF001 at 15, 16, 17 (dispatcher) and 43 (registry), TRF003
# at 61 for the task created at 59 (receiver).  The registry's sleeping task is
# confirmed as written too: closing the loop drops its timers, and the task
# nothing else holds is then destroyed pending (the fixed server keeps it).
BROKEN = {
    ("dispatcher", False): [],
    ("dispatcher", True): [(15, ("TRF001", 15)), (16, ("TRF001", 16)), (17, ("TRF001", 17))],
    ("registry", False): [(43, ("TRF001", 43))],
    ("registry", True): [(43, ("TRF001", 43))],
    ("receiver", False): [],
    ("receiver", True): [(59, ("TRF003", 61))],
}


@pytest.mark.parametrize("scenario,waiting", sorted(BROKEN), ids=lambda v: str(v))
def test_broken_service(scenario: str, waiting: bool) -> None:
    module = _load("broken_service")
    assert _watched(SCENARIOS[scenario](module, waiting), "broken_service") == BROKEN[scenario, waiting]


# fixed_service.py has no finding of the default rules.  Its receiver still loses
# encode_task when the caller is cancelled during asyncio.wait(): the loop that
# cancels the pending tasks runs only when wait() returns.  The opt-in TRF010 names
# that wait (the runtime maps each loss to every rule's finding).
FIXED = {
    ("dispatcher", False): [],
    ("dispatcher", True): [],
    ("registry", False): [],
    ("registry", True): [],
    ("receiver", False): [],
    ("receiver", True): [(58, ("TRF010", 60))],
}


@pytest.mark.parametrize("scenario,waiting", sorted(FIXED), ids=lambda v: str(v))
def test_fixed_service(scenario: str, waiting: bool) -> None:
    module = _load("fixed_service")
    assert _watched(SCENARIOS[scenario](module, waiting), "fixed_service") == FIXED[scenario, waiting]
