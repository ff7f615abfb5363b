"""``pytest --taskref-gc`` on each supported Python (issue 24): every path by
which the plugin finds a lost task (the shutdowns whose ``asyncio.all_tasks()``
it patches, and the collection at the end of a test, which reads asyncio's
registry of tasks) finds one here, with the report it should give; and with
that path disabled the same loss is not reported in the test that lost it, so
each case tests its path and not a collection that would have happened anyway.

Run this file on every Python (``docs/reliability.md`` lists the runs): Python
3.14 moved the tasks of asyncio's C implementation out of the registry, which
the collection at the end of a test read alone before.
"""
from __future__ import annotations

import gc
import sys
from typing import Dict, List, NamedTuple, Optional, Tuple

import pytest

from flake8_taskref.runtime import watch as runtime
from tests.test_pytest_plugin import _run

pytest_plugins = ("pytester",)

# The lost task waits on an event only it holds; it is created at line 11.
HEAD = """\
import asyncio
import unittest


async def worker(event):
    await event.wait()


async def main():
    {setup}
    {spawn}
    await asyncio.sleep(0)


"""
CREATE_TASK = "asyncio.create_task(worker(asyncio.Event()))"
DIRECT_TASK = "asyncio.Task(worker(asyncio.Event()))"

RUN = """\
def test_lost():
    asyncio.run(main())
"""
RUNNER = """\
def test_lost():
    with asyncio.Runner() as runner:
        runner.run(main())
"""
ISOLATED = """\
class TestLost(unittest.IsolatedAsyncioTestCase):
    async def test_lost(self):
        await main()
"""
HAND_WRITTEN = """\
async def shut_down():
    await main()
    current = asyncio.current_task()
    others = [task for task in asyncio.all_tasks() if task is not current]
    for task in others:
        task.cancel()
    await asyncio.gather(*others, return_exceptions=True)


def test_lost():
    loop = asyncio.new_event_loop()
    try:
        loop.run_until_complete(shut_down())
    finally:
        loop.close()
"""
CLOSED = """\
def test_lost():
    loop = asyncio.new_event_loop()
    loop.run_until_complete(main())
    loop.close()
"""
UVLOOP_RUN = """\
def test_lost():
    import uvloop

    uvloop.run(main())
"""
MODULE_LOOP = """\
import pytest


@pytest.mark.asyncio(loop_scope="module")
async def test_lost():
    await main()


@pytest.mark.asyncio(loop_scope="module")
async def test_after():
    await asyncio.sleep(0)
"""

SHUTDOWN = "all_tasks"  # found because a shutdown's asyncio.all_tasks() collects first
END_OF_TEST = "registry"  # found by the collection at the end of the test


class Case(NamedTuple):
    spawn: str
    tail: str
    path: str  # SHUTDOWN or END_OF_TEST
    since: Tuple[int, int] = (3, 9)
    setup: str = "pass"
    needs: Optional[str] = None  # a module the case imports
    passed: int = 1


CASES: Dict[str, Case] = {
    "asyncio.run": Case(CREATE_TASK, RUN, SHUTDOWN),
    "asyncio.Runner": Case(CREATE_TASK, RUNNER, SHUTDOWN, since=(3, 11)),
    "IsolatedAsyncioTestCase": Case(CREATE_TASK, ISOLATED, SHUTDOWN),
    "hand-written all_tasks() shutdown": Case(CREATE_TASK, HAND_WRITTEN, SHUTDOWN),
    "eager_task_factory": Case(
        CREATE_TASK,
        RUN,
        SHUTDOWN,
        since=(3, 12),
        setup="asyncio.get_running_loop().set_task_factory(asyncio.eager_task_factory)",
    ),
    "create_task(eager_start=True)": Case(
        "asyncio.create_task(worker(asyncio.Event()), eager_start=True)", RUN, SHUTDOWN, since=(3, 14)
    ),
    "uvloop.run": Case(CREATE_TASK, UVLOOP_RUN, SHUTDOWN, needs="uvloop"),
    "asyncio.Task(), loop closed": Case(DIRECT_TASK, CLOSED, END_OF_TEST),
    "asyncio.Task(eager_start=True), loop closed": Case(
        "asyncio.Task(worker(asyncio.Event()), eager_start=True)", CLOSED, END_OF_TEST, since=(3, 14)
    ),
    "asyncio.Task(), pytest-asyncio's module loop": Case(
        DIRECT_TASK, MODULE_LOOP, END_OF_TEST, needs="pytest_asyncio", passed=2
    ),
}

# (Python 3.13.0 names a task factory's tasks 'None', reported as 'a task')
DEFINED = "- * running worker() (defined at test_path.py:5): destroyed while pending"
UNKNOWN = (
    "  created at: unknown (not by a loop's create_task, e.g. asyncio.Task() called directly; "
    "--taskref-gc-debug records it)"
)


def _prepare(pytester: pytest.Pytester, name: str) -> Case:
    case = CASES[name]
    if sys.version_info < case.since:
        pytest.skip(f"{name} is new in Python {'.'.join(map(str, case.since))}")
    if case.needs is not None:
        pytest.importorskip(case.needs, reason=f"{case.needs} does not install on this Python")
    pytester.makepyfile(test_path=HEAD.format(setup=case.setup, spawn=case.spawn) + case.tail)
    return case


def _expected(case: Case) -> List[str]:
    if case.spawn.startswith("asyncio.Task("):
        return [DEFINED, UNKNOWN]
    return [DEFINED, "  created at test_path.py:11 in main", "  confirms TRF001 at test_path.py:11: *"]


def _run_without_automatic_collections(pytester: pytest.Pytester) -> pytest.RunResult:
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _run(pytester, "--taskref-gc")
    finally:
        if enabled:
            gc.enable()


def _lost_in_its_test(result: pytest.RunResult) -> bool:
    """Whether the test that lost the task has the error (a later test may
    find the loss at its loop's shutdown)."""
    return any("ERROR at teardown of" in line and "test_lost" in line for line in result.outlines)


@pytest.mark.parametrize("name", list(CASES))
def test_found(pytester: pytest.Pytester, name: str) -> None:
    case = _prepare(pytester, name)
    result = _run(pytester, "--taskref-gc")
    result.assert_outcomes(passed=case.passed, errors=1)
    assert _lost_in_its_test(result) is True
    result.stdout.fnmatch_lines(_expected(case), consecutive=True)


@pytest.mark.parametrize("name", list(CASES))
def test_not_found_without_its_path(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """The control: the path the case relies on, disabled (and CPython's own
    collections too, which may find the loss at any moment: on 3.9 they do
    during IsolatedAsyncioTestCase's teardown)."""
    case = _prepare(pytester, name)
    if case.path == SHUTDOWN:
        monkeypatch.setattr(runtime, "_ALL_TASKS", ())
    else:
        monkeypatch.setattr(runtime, "_pending_ids", lambda loops: set())
    result = _run_without_automatic_collections(pytester)
    assert result.parseoutcomes()["passed"] == case.passed
    assert _lost_in_its_test(result) is False


@pytest.mark.skipif(sys.version_info < (3, 14), reason="asyncio's registry holds every task before 3.14")
@pytest.mark.parametrize("name", [name for name, case in CASES.items() if case.path == END_OF_TEST])
def test_registry_alone_misses_the_c_tasks(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """Python 3.14+: without asking the loops seen, the loss goes unreported in
    its test (what the plugin did on 3.14 before issue 24)."""
    _prepare(pytester, name)
    monkeypatch.setattr(runtime, "ASK_LOOPS", False)
    result = _run_without_automatic_collections(pytester)
    assert _lost_in_its_test(result) is False


def test_a_free_threaded_build_is_refused(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    """No free-threaded build could be installed where this was written (Debian's
    sid has none), so a fake one: Py_GIL_DISABLED set, as on 3.13t and 3.14t.
    One line, the usage error's exit code; off, the suite runs as without it."""
    import sysconfig

    real = sysconfig.get_config_var
    monkeypatch.setattr(
        sysconfig, "get_config_var", lambda name: 1 if name == "Py_GIL_DISABLED" else real(name)
    )
    pytester.makepyfile(test_path=HEAD.format(setup="pass", spawn=CREATE_TASK) + RUN)
    version = "{}.{}".format(*sys.version_info[:2])
    refused = [
        f"ERROR: --taskref-gc: not supported on a free-threaded Python ({version}t here): untested there, "
        "and its garbage collector walks the whole heap at every collection; run it on the default "
        "build, or turn it off for this run with --taskref-gc=off"
    ]
    for args in (["--taskref-gc"], ["--taskref-gc=warn"], ["-o", "taskref_gc=true"]):
        result = _run(pytester, *args)
        assert result.ret == pytest.ExitCode.USAGE_ERROR
        assert [line for line in result.errlines if line] == refused
    for args in ([], ["-o", "taskref_gc=true", "--taskref-gc=off"]):
        result = _run(pytester, *args)
        result.assert_outcomes(passed=1)
        assert "taskref-gc" not in result.stdout.str()
