"""``pytest --taskref-gc`` must never change a suite's fate (issue 18): eager
tasks, garbage and file descriptors, pytest-xdist, the shutdowns and loops it
watches, configuration errors, the marker that allows a loss."""
from __future__ import annotations

import asyncio
import gc
import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, List, Tuple

import pytest

from flake8_taskref.runtime import pytest_plugin
from flake8_taskref.runtime import watch as runtime
from tests.test_pytest_plugin import FINDING, LOST, REPORT, _error_block, _run

pytest_plugins = ("pytester",)


# ------------------------------------------------------------ eager tasks
EAGER = """\
import asyncio


async def quick():
    return 1


async def boom():
    raise ValueError("lost")


async def worker(event):
    await event.wait()


async def main():
    asyncio.get_running_loop().set_task_factory(asyncio.eager_task_factory)
    assert await asyncio.create_task(quick()) == 1
    asyncio.create_task(boom())
    asyncio.create_task(worker(asyncio.Event()))
    await asyncio.sleep(0)


def test_eager():
    asyncio.run(main())
"""


@pytest.mark.skipif(sys.version_info < (3, 12), reason="asyncio.eager_task_factory is new in 3.12")
def test_eager_tasks(pytester: pytest.Pytester) -> None:
    """A task that finishes at once killed Python 3.12.0 to 3.12.4 (CPython
    issue 122332: get_coro() on it); on 3.13 one that raised was reported as
    'None running NoneType()'.  In a subprocess: a crash must not take this
    suite with it."""
    pytester.makepyfile(test_eager=EAGER)
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--taskref-gc", "--taskref-gc-exceptions"
    )
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(
        [
            "taskref-gc: 1 pending task(s) destroyed by the garbage collector and "
            "1 task exception(s) never retrieved during this test",
            "- * running boom() (defined at test_eager.py:8): exception never retrieved",
            "  exception: ValueError('lost')",
            "  created at test_eager.py:19 in main",
            "  confirms TRF001 at test_eager.py:19: *",
            "- * running worker() (defined at test_eager.py:12): destroyed while pending",
            "  created at test_eager.py:20 in main",
        ],
        consecutive=True,
    )
    assert "None running" not in result.stdout.str()


def test_a_finished_task_is_not_asked_for_its_coroutine() -> None:
    """On every Python: the watch notes a task that is already done without
    touching its coroutine (what crashes 3.12.0-3.12.4 for eager tasks)."""

    class Finished(asyncio.Future):  # type: ignore[type-arg]
        def get_coro(self) -> None:
            raise AssertionError("get_coro() of a finished task")

        def set_name(self, name: object) -> None:  # Python 3.13.0 names a factory's task
            pass

    async def quick() -> int:
        return 1

    async def main() -> None:
        loop = asyncio.get_running_loop()

        def factory(loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> Finished:
            coro.close()
            task = Finished(loop=loop)
            task.set_result(1)
            return task

        loop.set_task_factory(factory)  # type: ignore[arg-type]
        assert await loop.create_task(quick()) == 1

    for exceptions in (False, True):
        watch = runtime.Watch(exceptions=exceptions)
        watch.start()
        try:
            asyncio.run(main())
        finally:
            watch.stop()


# ------------------------------------------------- garbage and descriptors
MEASURE = """\
import os
import resource

MOST = [0]


def pytest_runtest_logfinish(nodeid, location):
    if os.path.isdir("/proc/self/fd"):
        MOST[0] = max(MOST[0], len(os.listdir("/proc/self/fd")))


def pytest_unconfigure(config):
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with open(os.environ["TASKREF_MEASURE"], "w") as out:
        out.write(f"{peak} {MOST[0]}")
"""

# The cases: tests that each drop a 200 KB cycle; tests that forget
# loop.close(); and a cycle one test makes and the next one drops.
CYCLE = """
def test_{i}():
    cycle = [bytearray(200_000)]
    cycle.append(cycle)
"""
OPEN_LOOP = """
def test_{i}():
    loop = asyncio.new_event_loop()
    loop.run_until_complete(asyncio.sleep(0))
"""
LATER = """
def test_{i}():
    KEPT.clear()
    cycle = [bytearray(200_000)]
    cycle.append(cycle)
    KEPT.append(cycle)
"""


def _suite(where: Path, head: str, test: str, count: int) -> None:
    (where / "conftest.py").write_text(MEASURE)
    (where / "pytest.ini").write_text("[pytest]\n")
    (where / "test_many.py").write_text(head + "".join(test.format(i=i) for i in range(count)))


def _measure(where: Path, *args: str, files: int = 0) -> Tuple[int, int, str]:
    """Peak memory (ru_maxrss) and most open descriptors of a pytest run, and
    its summary line; ``files`` lowers the limit of open files."""
    out = where / "measure.txt"
    env = dict(os.environ, TASKREF_MEASURE=str(out), PYTHONDONTWRITEBYTECODE="1")

    def limit() -> None:
        import resource

        if files:
            resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))

    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-W", "ignore", *args],
        cwd=where, env=env, capture_output=True, text=True, preexec_fn=limit, timeout=600,
    )
    peak, fds = (int(value) for value in out.read_text().split())
    return peak, fds, done.stdout.strip().splitlines()[-1]


needs_proc = pytest.mark.skipif(
    not os.path.isdir("/proc/self/fd") or sys.platform == "win32", reason="counts /proc/self/fd"
)


@needs_proc
@pytest.mark.parametrize(
    "head,test,count,files",
    [("", CYCLE, 1000, 0), ("import asyncio\n", OPEN_LOOP, 600, 256), ("KEPT = []\n", LATER, 1000, 0)],
    ids=["1000 tests dropping a 200 KB cycle", "600 loops left open under ulimit -n 256",
         "a cycle dropped by the next test"],
)
def test_garbage_does_not_outlive_the_tests(
    tmp_path: Path, head: str, test: str, count: int, files: int
) -> None:
    """Freezing the collector around each test kept every test's garbage (252
    MB instead of 69; 'Too many open files'): memory and descriptors stay
    within 1.2 times those of the same run without the option."""
    _suite(tmp_path, head, test, count)
    peak_off, fds_off, summary_off = _measure(tmp_path, files=files)
    peak_on, fds_on, summary_on = _measure(tmp_path, "--taskref-gc", files=files)
    assert summary_off.startswith(f"{count} passed"), summary_off
    assert summary_on.startswith(f"{count} passed"), summary_on
    assert peak_on <= 1.2 * peak_off, (peak_on, peak_off)
    assert fds_on <= 1.2 * fds_off + 2, (fds_on, fds_off)


@pytest.mark.slow
@needs_proc
def test_loops_left_open_under_the_common_limit(tmp_path: Path) -> None:
    """The issue's larger case: 1,500 such tests under ``ulimit -n 1024``."""
    _suite(tmp_path, "import asyncio\n", OPEN_LOOP, 1500)
    peak_off, fds_off, summary_off = _measure(tmp_path, files=1024)
    peak_on, fds_on, summary_on = _measure(tmp_path, "--taskref-gc", files=1024)
    assert summary_off.startswith("1500 passed") and summary_on.startswith("1500 passed"), summary_on
    assert fds_on <= 1.2 * fds_off + 2 and peak_on <= 1.2 * peak_off


FAILED_THEN_BIND = """\
import gc
import socket

KEPT = []
PORT = []


def _port():
    if not PORT:
        probe = socket.socket()
        probe.bind(("127.0.0.1", 0))
        PORT.append(probe.getsockname()[1])
        probe.close()
    return PORT[0]


{fillers}


def test_7_fails_holding_a_bound_socket():
    server = socket.socket()
    server.bind(("127.0.0.1", _port()))
    holder = [server]
    holder.append(holder)  # a cycle: freed by the collector once the frame goes
    assert False, "fails"


def test_8_binds_the_port_again():
    gc.collect()  # without the plugin, this frees the last test's socket
    again = socket.socket()
    again.bind(("127.0.0.1", _port()))
    again.close()
"""


def test_a_failed_test_leaves_nothing_frozen(pytester: pytest.Pytester) -> None:
    """pytest keeps a failed test's exception (``sys.last_traceback``, with its
    frames) until the next test's call; the heap froze it at the next test's
    start, and what it held lived on until a full collection: a port left bound
    for the next tests (aio-msgpack-rpc's suite: 4 tests failed without the
    plugin, 8 with it).  The same two results with and without the plugin."""
    fillers = "\n\n".join(
        f"def test_{i}_fills():\n    KEPT.extend([[] for _ in range(800)])" for i in range(7)
    )
    pytester.makepyfile(test_bind=FAILED_THEN_BIND.format(fillers=fillers))
    off = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--taskref-gc=off")
    off.assert_outcomes(passed=8, failed=1)
    on = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--taskref-gc")
    on.assert_outcomes(passed=8, failed=1)


def test_heap_freezes_no_garbage() -> None:
    """What the heap freezes between tests is collected first: a cycle dropped
    before the freeze is freed, not kept frozen."""
    if gc.get_freeze_count() not in (0, runtime._STARTUP_FREEZE):
        pytest.skip("something else froze objects (this suite runs under --taskref-gc)")
    import weakref

    class Node:
        pass

    heap = runtime.Heap()
    try:
        assert heap.before_test()
        node = Node()
        node.self = node  # type: ignore[attr-defined]
        ref = weakref.ref(node)
        del node
        heap.after_test()
        heap.young = heap.YOUNG + 1  # as if recent tests left many objects
        heap.before_test()
        assert ref() is None
    finally:
        heap.release()
    assert gc.get_freeze_count() == 0


# -------------------------------------------------------------------- cost
def test_tasks_get_no_extra_done_callback(pytester: pytest.Pytester) -> None:
    """Noting a task adds nothing to it (a done callback per task cost a loop
    turn each; the report shows the task as the user made it)."""
    pytester.makepyfile(
        test_callbacks="""
        import asyncio


        async def main():
            task = asyncio.create_task(asyncio.sleep(0))
            assert "cb=[" not in repr(task), repr(task)
            await task


        def test_callbacks():
            asyncio.run(main())
        """
    )
    _run(pytester, "--taskref-gc").assert_outcomes(passed=1)


def test_the_noted_stack_ends_where_the_loop_runs_the_spawner() -> None:
    """Each frame walked costs a frame object: the walk stops at asyncio's code
    after the code that created the task (the loop running it), which the
    attribution never looks past; a task created from outside a loop keeps
    its stack up to the depth."""
    noted: List[Tuple[str, ...]] = []

    async def child() -> None:
        pass

    async def spawner() -> None:
        await asyncio.create_task(child())

    def record(watch: runtime.Watch) -> None:
        for _, _, _, stack, _ in watch._noted.values():
            noted.append(tuple(code.co_name for code, _ in stack))

    watch = runtime.Watch()
    watch.start()
    try:
        real_note = watch.note

        def note(task: Any, coro: Any, frame: Any) -> None:
            real_note(task, coro, frame)
            record(watch)
            watch._noted.clear()

        watch.note = note  # type: ignore[method-assign]
        asyncio.run(spawner())
    finally:
        watch.stop()
    inner = [stack for stack in noted if "spawner" in stack and stack[-1] == "spawner"]
    assert inner == [("create_task", "spawner")], noted
    outer = [stack for stack in noted if "test_the_noted_stack_ends_where_the_loop_runs_the_spawner" in stack]
    assert outer and all(len(stack) == runtime.STACK_DEPTH for stack in outer), noted


COLLECTIONS = """\
import asyncio

KEPT = set()


async def clean():
    await asyncio.gather(asyncio.create_task(asyncio.sleep(0)))


async def pending():
    waiter = asyncio.create_task(asyncio.Event().wait())
    KEPT.add(waiter)
    waiter.add_done_callback(KEPT.discard)
    await asyncio.sleep(0)

""" + "".join(
    f"\n\ndef test_clean_{i}():\n    asyncio.run(clean())\n"
    f"\n\ndef test_pending_{i}():\n    asyncio.run(pending())\n"
    for i in range(10)
)


def test_collections_a_test_pays(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    """A test that leaves nothing pending pays no collection; one that leaves a
    kept task for the shutdown to cancel pays one, before the cancel (not one
    more at loop.close() or after the teardown)."""
    calls: List[str] = []
    collect = gc.collect

    def counting(generation: int = 2) -> int:
        test = os.environ.get("PYTEST_CURRENT_TEST", "")
        calls.append(test.split("::")[-1].split(" ")[0])
        return collect(generation)

    pytester.makepyfile(test_collections=COLLECTIONS)
    monkeypatch.setattr(gc, "collect", counting)
    _run(pytester, "--taskref-gc").assert_outcomes(passed=20)
    monkeypatch.undo()
    during = [name for name in calls if name.startswith(("test_clean", "test_pending"))]
    assert not [name for name in during if name.startswith("test_clean")], during
    assert sorted(during) == sorted(f"test_pending_{i}" for i in range(10)), during


# ------------------------------------------------------------------ xdist
def test_xdist_warn_mode_reports_in_the_controller(pytester: pytest.Pytester) -> None:
    """With -n 2, warn mode printed nothing: the workers' findings go to the
    controller with their reports, and fail mode is unchanged."""
    pytest.importorskip("xdist")
    pytester.makepyfile(test_lost=LOST, test_other=LOST.replace("def test_lost", "def test_other"))
    warn = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-n", "2", "--taskref-gc=warn")
    warn.assert_outcomes(passed=2)
    assert warn.ret == pytest.ExitCode.OK
    warn.stdout.fnmatch_lines(["=* taskref-gc: 2 pending task(s) destroyed =*"])
    for name in ("test_lost", "test_other"):
        defined = f"  - Task-* running worker() (defined at {name}.py:4): *"
        warn.stdout.fnmatch_lines(
            [f"{name}.py::{name}", "  " + REPORT[0], defined],
            consecutive=True,
        )
    fail = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-n", "2", "--taskref-gc")
    fail.assert_outcomes(passed=2, errors=2)
    fail.stdout.fnmatch_lines([FINDING])
    assert "pending task(s) destroyed =" not in fail.stdout.str()


# ------------------------------------------- shutdowns, tasks, other loops
ISOLATED = """\
import asyncio
import unittest


async def worker(event):
    await event.wait()


class TestLost(unittest.IsolatedAsyncioTestCase):
    async def test_lost(self):
        asyncio.create_task(worker(asyncio.Event()))
        await asyncio.sleep(0)
"""


def test_isolated_asyncio_test_case(pytester: pytest.Pytester) -> None:
    """On 3.9 and 3.10 its teardown cancels asyncio.all_tasks() itself."""
    pytester.makepyfile(test_isolated=ISOLATED)
    result = _run(pytester, "--taskref-gc")
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(
        ["  created at test_isolated.py:11 in test_lost", "  confirms TRF001 at test_isolated.py:11: *"],
        consecutive=True,
    )


HAND_WRITTEN = """\
import asyncio


async def worker(event):
    await event.wait()


async def main():
    asyncio.create_task(worker(asyncio.Event()))
    await asyncio.sleep(0)
    current = asyncio.current_task()
    others = [task for task in asyncio.all_tasks() if task is not current]
    for task in others:
        task.cancel()
    await asyncio.gather(*others, return_exceptions=True)


def test_lost():
    loop = asyncio.new_event_loop()
    try:
        loop.run_until_complete(main())
    finally:
        loop.close()
"""


def test_hand_written_shutdown(pytester: pytest.Pytester) -> None:
    """A shutdown that cancels asyncio.all_tasks() by hand: the collector runs first."""
    pytester.makepyfile(test_lost=HAND_WRITTEN)
    result = _run(pytester, "--taskref-gc")
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(REPORT, consecutive=True)


DIRECT = """\
import asyncio


async def worker(event):
    await event.wait()


async def main():
    asyncio.Task(worker(asyncio.Event()))
    await asyncio.sleep(0)


def test_lost():
    asyncio.run(main())
"""


def test_task_created_by_calling_asyncio_task(pytester: pytest.Pytester) -> None:
    """Not noted (no loop method runs), but found; debug mode records where."""
    pytester.makepyfile(test_lost=DIRECT)
    result = _run(pytester, "--taskref-gc")
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(
        [
            "- Task-* running worker() (defined at test_lost.py:4): destroyed while pending",
            "  created at: unknown (not by a loop's create_task, e.g. asyncio.Task() called directly; "
            "--taskref-gc-debug records it)",
        ],
        consecutive=True,
    )
    result = _run(pytester, "--taskref-gc", "--taskref-gc-debug")
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(
        ["  created at test_lost.py:9 in main", "  confirms TRF001 at test_lost.py:9: *"], consecutive=True
    )


UVLOOP = """\
import asyncio

import uvloop


async def worker(event):
    await event.wait()


async def main():
    asyncio.create_task(worker(asyncio.Event()))
    await asyncio.sleep(0)


def test_run():
    uvloop.run(main())


def test_loop_closed():
    loop = uvloop.new_event_loop()
    loop.run_until_complete(main())
    loop.close()
"""


def test_uvloop(pytester: pytest.Pytester) -> None:
    """uvloop's loops are watched as asyncio's (its Loop is a Python subclass)."""
    pytest.importorskip("uvloop")
    pytester.makepyfile(test_uv=UVLOOP)
    result = _run(pytester, "--taskref-gc")
    result.assert_outcomes(passed=2, errors=2)
    # Count in the error sections only: where pytest sees CI=true (as in CI), its short
    # summary repeats each error's whole message, not just its first line.
    sections = result.stdout.str().split("short test summary info")[0]
    assert sections.count("  confirms TRF001 at test_uv.py:11: ") == 2
    assert "TaskRefGCWarning" not in result.stdout.str()


FOREIGN = """\
import asyncio


class ForeignLoop:
    '''A loop the watch cannot patch, seen at a shutdown.'''


def test_first():
    assert asyncio.all_tasks(ForeignLoop()) == set()


def test_second():
    assert asyncio.all_tasks(ForeignLoop()) == set()
"""


def test_a_loop_that_is_not_watched_is_named_once(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_foreign=FOREIGN)
    result = _run(pytester, "--taskref-gc", "-W", "error")  # the warning fails no test
    result.assert_outcomes(passed=2, warnings=1)
    assert result.stdout.str().count("--taskref-gc: loops of test_foreign.ForeignLoop are not watched") == 1


# ---------------------------------------------------- configuration errors
@pytest.mark.parametrize("where", ["per-file-ignores", "pyproject.toml in a parent folder", "fix-keep"])
def test_configuration_errors_give_one_warning(pytester: pytest.Pytester, where: str) -> None:
    """A malformed per-file-ignores, or a pyproject.toml that is not UTF-8
    (even above the root), gave INTERNALERROR: now one warning, the reports
    without static findings, and the session goes on.  The same for a value
    the command refuses (fix-keep).  (A pyproject.toml that cannot hold our
    table, and ruff.toml, are not read without --fix.)"""
    if where == "per-file-ignores":
        root = pytester.path
        (root / "setup.cfg").write_text("[flake8]\nper-file-ignores =\n    TRF001\n")
        cause = "--per-file-ignores: Expected `per-file-ignores` to be a mapping"
    elif where == "fix-keep":
        root = pytester.path
        (root / "setup.cfg").write_text("[flake8]\nfix-keep = nowhere\n")
        cause = "--fix-keep: 'nowhere' is not one of module, instance"
    else:
        root = pytester.mkdir("project")
        (pytester.path / "pyproject.toml").write_bytes(b'[tool.flake8-taskref]\ntaskref-spawners = "\xe9"\n')
        cause = "pyproject.toml: 'utf-8' codec can't decode"
    # warnings as errors must not make ours an abort
    (root / "pytest.ini").write_text(
        "[pytest]\nfilterwarnings = error\nasyncio_default_fixture_loop_scope = function\n"
    )
    (root / "test_lost.py").write_text(LOST)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--taskref-gc", str(root))
    result.assert_outcomes(passed=1, errors=1)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    output = result.stdout.str()
    assert output.count("TaskRefGCWarning: --taskref-gc: the project's flake8-taskref configuration "
                        "cannot be read (") == 1, output
    assert cause in output
    result.stdout.fnmatch_lines(
        [
            "  created at test_lost.py:9 in main",
            "  static findings: not matched (the project's configuration could not be read)",
        ],
        consecutive=True,
    )
    assert "confirms" not in output
    if where == "per-file-ignores" and importlib.util.find_spec("xdist") is not None:
        # pytest-xdist: the controller warns, its workers do not
        result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-n", "2", "--taskref-gc", str(root))
        result.assert_outcomes(passed=1, errors=1, warnings=1)


def test_what_only_the_fix_reads_is_not_read(pytester: pytest.Pytester) -> None:
    """A ruff.toml that is not UTF-8 (only --fix reads Ruff's line length): no
    warning, and the finding is confirmed."""
    root = pytester.path
    (root / "ruff.toml").write_bytes(b'line-length = "\xe9"\n')
    (root / "pytest.ini").write_text("[pytest]\nasyncio_default_fixture_loop_scope = function\n")
    (root / "test_lost.py").write_text(LOST)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--taskref-gc", str(root))
    result.assert_outcomes(passed=1, errors=1)
    output = result.stdout.str()
    assert "TaskRefGCWarning" not in output and "not matched" not in output, output
    assert "confirms TRF" in output, output


# ------------------------------------------------------------------ marker
ALLOWED = LOST + """

import pytest


@pytest.mark.taskref_gc(allow=True, reason="drops a task on purpose")
def test_allowed():
    asyncio.run(main())
"""


@pytest.mark.parametrize("mode", ["fail", "warn"])
def test_marker_allows_one_test(pytester: pytest.Pytester, mode: str) -> None:
    pytester.makepyfile(test_lost=ALLOWED)
    result = _run(pytester, "--strict-markers", f"--taskref-gc={mode}")
    if mode == "fail":
        result.assert_outcomes(passed=2, errors=1)
        assert "ERROR test_lost.py::test_lost - " in result.stdout.str()
    else:
        result.assert_outcomes(passed=2)
        result.stdout.fnmatch_lines(
            ["=* taskref-gc: 1 pending task(s) destroyed =*", "test_lost.py::test_lost"]
        )
    assert "test_allowed" not in result.stdout.str()


def test_marker_is_registered_without_the_option(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_lost=ALLOWED.replace("def test_lost", "def _not_a_test"))
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--strict-markers")
    result.assert_outcomes(passed=1)
    result = _run(pytester, "--markers")
    result.stdout.fnmatch_lines(["@pytest.mark.taskref_gc(allow=True, reason=None): *"])


# ---------------------------------------------------------------- messages
WAIT = """\
import asyncio


async def worker(event):
    await event.wait()


async def main():
    tasks = [asyncio.create_task(worker(asyncio.Event())) for _ in range(2)]
    done, _ = await asyncio.wait(tasks, timeout=0.01)
    return len(done)


def test_lost():
    asyncio.run(main())
"""


def test_finding_in_the_same_function_that_names_the_task(pytester: pytest.Pytester) -> None:
    """TRF005 is reported at asyncio.wait(), a line below the spawn: it names
    the local the spawn binds, so the loss confirms it (it said 'misses')."""
    pytester.makepyfile(test_lost=WAIT)
    result = _run(pytester, "--taskref-gc")
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(
        [
            "  created at test_lost.py:9 in *",  # <listcomp> before Python 3.12
            "  confirms TRF005 at test_lost.py:10: pending tasks of asyncio.wait() are dropped "
            "(tasks from local 'tasks'); *",
        ],
        consecutive=True,
    )
    assert "misses" not in result.stdout.str()


CALLBACK = """\
import asyncio


async def worker(event):
    await event.wait()


def start():
    return asyncio.ensure_future(worker(asyncio.Event()))


async def main():
    asyncio.get_running_loop().call_soon(start)
    await asyncio.sleep(0.01)


def test_lost():
    asyncio.run(main())
"""


def test_a_callback_returning_its_task_to_the_loop_is_the_spawn_site(pytester: pytest.Pytester) -> None:
    """A helper hands its task to its caller; a callback hands it to the loop,
    which drops it: the callback is where it is lost."""
    pytester.makepyfile(test_lost=CALLBACK)
    result = _run(pytester, "--taskref-gc")
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(["  created at test_lost.py:9 in start"])


KEPT_UNREAD = """\
import asyncio

KEPT = set()


async def boom():
    raise ValueError("unread")


async def main():
    task = asyncio.create_task(boom())
    KEPT.add(task)
    await asyncio.sleep(0)
    KEPT.clear()


def test_unread():
    asyncio.run(main())
"""


def test_exception_of_a_kept_task(pytester: pytest.Pytester) -> None:
    """A kept task whose exception nobody read: not a spawn the analysis 'misses'."""
    pytester.makepyfile(test_unread=KEPT_UNREAD)
    result = _run(pytester, "--taskref-gc", "--taskref-gc-exceptions")
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(
        [
            "  created at test_unread.py:11 in main",
            "  no TRF finding for this spawn (the TRF codes are about lost tasks, not unread exceptions)",
        ],
        consecutive=True,
    )
    assert "misses" not in result.stdout.str()


def test_task_names_python_gives_none() -> None:
    """Python 3.13.0 names the tasks of a task factory 'None', and an eager task
    that finished has no coroutine: no 'None running NoneType()'."""
    from flake8_taskref.runtime import attribution

    report = runtime.Report(runtime.NOT_RETRIEVED, "None", "", None, (), "ValueError()")
    text = attribution.format_reports([report], attribution.Attributor("."))
    assert text.splitlines()[1] == "- a task: exception never retrieved"


def test_debug_mode_log_names_the_users_line(pytester: pytest.Pytester) -> None:
    """asyncio's own log said the task was created in the plugin's wrapper."""
    pytester.makepyfile(test_lost=LOST)
    result = _run(pytester, "--taskref-gc", "--taskref-gc-debug")
    result.assert_outcomes(passed=1, errors=1)
    lines = result.stdout.lines
    start = lines.index("source_traceback: Object created at (most recent call last):")
    stack = [line for line in lines[start + 1:] if line.startswith("  File ")]
    stack = stack[:next(i for i, line in enumerate(stack) if "test_lost.py\", line 9, in main" in line) + 2]
    # the user's line, then asyncio.create_task's own line (as without the plugin)
    assert stack[-1].startswith(f'  File "{os.path.dirname(asyncio.__file__)}'), stack
    assert "flake8_taskref" not in result.stdout.str().split("Captured log")[-1]


OUTSIDE = """\
import asyncio
import sys

sys.path.insert(0, "../lib")  # a relative entry: code objects get relative file names

import spawner  # noqa: E402


def test_lost():
    asyncio.run(spawner.main())
"""
SPAWNER = """\
import asyncio


async def worker(event):
    await event.wait()


async def main():
    asyncio.create_task(worker(asyncio.Event()))
    await asyncio.sleep(0)
"""


def test_paths_outside_the_root_are_absolute(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = pytester.mkdir("root")
    lib = pytester.mkdir("lib")
    (lib / "spawner.py").write_text(SPAWNER)
    (root / "test_outside.py").write_text(OUTSIDE)
    (root / "pytest.ini").write_text("[pytest]\n")
    monkeypatch.chdir(root)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--taskref-gc")
    result.assert_outcomes(passed=1, errors=1)
    spawner = os.path.realpath(lib / "spawner.py")
    result.stdout.fnmatch_lines(
        [
            f"- Task-* running worker() (defined at {spawner}:4): destroyed while pending",
            f"  created at {spawner}:9 in main",
            f"  confirms TRF001 at {spawner}:9: *",
        ],
        consecutive=True,
    )
    assert "../lib" not in "\n".join(_error_block(result))


def test_plugin_docstring_says_debug_mode_is_opt_in() -> None:
    """It said every loop runs in debug mode."""
    doc = " ".join((pytest_plugin.__doc__ or "").split())
    assert "event loops created during the test run in asyncio debug mode" not in doc
    assert "(``--taskref-gc-debug`` runs the loops in asyncio debug mode instead)" in doc
