"""The pytest plugin ``--taskref-gc`` (issue 13), run on small test modules with pytester."""
from __future__ import annotations

import pytest

from flake8_taskref.analysis import api
from flake8_taskref.runtime import attribution
from flake8_taskref.runtime import watch as runtime

pytest_plugins = ("pytester",)

# pytester's in-process runs put sys.modules back as it was after each run, so a
# module first imported inside one run is imported afresh by the next, and the
# classes of the first copy, still held by modules imported before, fail the
# next copy's isinstance checks. The analysis is imported here, once, for
# every run of this module to share (without this, a helper in another module
# was not confirmed when the tests ran in one process, -n 0).
api.load()

# A task that waits on an event only it holds: once its handle is dropped,
# only the cyclic collector can free it, and it does so while it is pending.
LOST = """\
import asyncio


async def worker(event):
    await event.wait()


async def main():
    asyncio.create_task(worker(asyncio.Event()))
    await asyncio.sleep(0)


def test_lost():
    asyncio.run(main())
"""

# The same code with the set-and-discard idiom.
KEPT = """\
import asyncio

background = set()


async def worker(event):
    await event.wait()


async def main():
    task = asyncio.create_task(worker(asyncio.Event()))
    background.add(task)
    task.add_done_callback(background.discard)
    await asyncio.sleep(0)


def test_kept():
    asyncio.run(main())
"""

FINDING = (
    "  confirms TRF001 at test_lost.py:9: task returned by asyncio.create_task() is not stored; "
    "keep a reference (e.g. a set with add_done_callback(set.discard))"
)
REPORT = [
    "taskref-gc: 1 pending task(s) destroyed by the garbage collector during this test",
    "- Task-* running worker() (defined at test_lost.py:4): destroyed while pending",
    "  created at test_lost.py:9 in main",
    FINDING,
    "fix: " + attribution.FIX,
]


def _run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    return pytester.runpytest(
        "-p", "no:cacheprovider", "-o", "asyncio_default_fixture_loop_scope=function", *args
    )


def _error_block(result: pytest.RunResult) -> list:  # type: ignore[type-arg]
    """The lines of the first 'ERROR at teardown' section, up to the captured log."""
    lines = result.outlines
    start = next(i for i, line in enumerate(lines) if "ERROR at teardown of" in line) + 1
    end = next(i for i in range(start, len(lines)) if lines[i].startswith(("---", "===")))
    return lines[start:end]


def test_dropped_task_fails_the_test(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_lost=LOST)
    result = _run(pytester, "--taskref-gc")
    result.assert_outcomes(passed=1, errors=1)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    block = _error_block(result)
    assert len(block) == len(REPORT)
    result.stdout.fnmatch_lines(REPORT, consecutive=True)


def test_without_the_option_nothing_changes(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_lost=LOST)
    # in a subprocess: when this suite itself runs under --taskref-gc, the lost
    # task would (rightly) fail this test
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "-o", "asyncio_default_fixture_loop_scope=function"
    )
    result.assert_outcomes(passed=1)
    assert "taskref-gc" not in result.stdout.str()


def test_fixed_twin_passes(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_kept=KEPT)
    result = _run(pytester, "--taskref-gc")
    result.assert_outcomes(passed=1)
    assert "taskref-gc" not in result.stdout.str()


def test_module_without_asyncio_is_untouched(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_plain="""
        import gc
        import weakref


        class Node:
            pass


        def test_cycle_is_collected():
            a, b = Node(), Node()
            a.b, b.a = b, a
            ref = weakref.ref(a)
            del a, b
            gc.collect()
            assert ref() is None


        def test_fails():
            assert 1 == 2
        """
    )
    result = _run(pytester, "--taskref-gc")
    result.assert_outcomes(passed=1, failed=1)
    assert "taskref-gc" not in result.stdout.str()


def test_warn_mode_reports_without_failing(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_lost=LOST)
    result = _run(pytester, "--taskref-gc=warn")
    result.assert_outcomes(passed=1)
    assert result.ret == pytest.ExitCode.OK
    result.stdout.fnmatch_lines(
        ["=* taskref-gc: 1 pending task(s) destroyed =*", "test_lost.py::test_lost"]
        + ["  " + line for line in REPORT],
        consecutive=True,
    )


def test_ini_option_turns_it_on(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_lost=LOST)
    pytester.makeini("[pytest]\ntaskref_gc = true\n")
    result = _run(pytester)
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines([FINDING])


def test_bare_flag_before_a_path(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_lost=LOST)
    result = _run(pytester, "--taskref-gc", "test_lost.py")
    result.assert_outcomes(passed=1, errors=1)


def test_unknown_mode_is_a_usage_error(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_lost=LOST)
    result = _run(pytester, "--taskref-gc=loud")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--taskref-gc: 'loud' is not a mode; use one of fail, warn, off"])


def test_found_only_because_the_collector_runs_before_the_cancel(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without the collection when asyncio.run's shutdown asks for the tasks to
    cancel, the lost task is cancelled with the others and nothing is reported."""
    pytester.makepyfile(test_lost=LOST)
    monkeypatch.setattr(runtime, "_ALL_TASKS", ())
    result = _run(pytester, "--taskref-gc")
    result.assert_outcomes(passed=1)


ASYNCIO_MARKED = """\
import asyncio

import pytest


async def worker(event):
    await event.wait()


@pytest.mark.asyncio
async def test_lost():
    asyncio.create_task(worker(asyncio.Event()))
    await asyncio.sleep(0)


@pytest.mark.asyncio
async def test_awaited():
    await asyncio.create_task(asyncio.sleep(0))
"""


@pytest.mark.parametrize("mode", ["strict", "auto"])
def test_pytest_asyncio(pytester: pytest.Pytester, mode: str) -> None:
    pytest.importorskip("pytest_asyncio")
    pytester.makepyfile(test_lost=ASYNCIO_MARKED)
    pytester.makeini(
        f"[pytest]\nasyncio_mode = {mode}\nasyncio_default_fixture_loop_scope = function\n"
    )
    result = _run(pytester, "--taskref-gc")
    result.assert_outcomes(passed=2, errors=1)
    result.stdout.fnmatch_lines(
        [
            "- Task-* running worker() (defined at test_lost.py:6): destroyed while pending",
            "  created at test_lost.py:12 in test_lost",
            "  confirms TRF001 at test_lost.py:12: *",
        ],
        consecutive=True,
    )
    assert "ERROR test_lost.py::test_lost - " in result.stdout.str()


ANYIO = """\
import asyncio

import pytest


@pytest.fixture
def anyio_backend():
    return "asyncio"


async def worker(event):
    await event.wait()


@pytest.mark.anyio
async def test_lost():
    asyncio.create_task(worker(asyncio.Event()))
    await asyncio.sleep(0)
"""


def test_anyio(pytester: pytest.Pytester) -> None:
    pytest.importorskip("anyio")
    pytester.makepyfile(test_lost=ANYIO)
    result = _run(pytester, "--taskref-gc")
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(
        ["  created at test_lost.py:17 in test_lost", "  confirms TRF001 at test_lost.py:17: *"],
        consecutive=True,
    )


HELPER = """\
import asyncio


def spawn(coro):
    return asyncio.ensure_future(coro)


async def worker(event):
    await event.wait()


async def main():
    spawn(worker(asyncio.Event()))
    await asyncio.sleep(0)


def test_lost():
    asyncio.run(main())
"""


# The same helper with a spawner the analysis cannot follow (a parameter's default).
HIDDEN = HELPER.replace("def spawn(coro):\n    return asyncio.ensure_future(coro)",
                        "def spawn(coro, make=asyncio.ensure_future):\n    return make(coro)")


def test_spawn_the_analysis_does_not_see(pytester: pytest.Pytester) -> None:
    """A spawn through an unconfigured helper the analysis cannot read: caught at
    runtime, no finding; the report names the caller that lost the task (the helper
    hands it out)."""
    assert HIDDEN != HELPER
    pytester.makepyfile(test_lost=HIDDEN)
    result = _run(pytester, "--taskref-gc")
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(
        [
            "  created at test_lost.py:13 in main, through spawn() at test_lost.py:5",
            "  no TRF finding for this spawn: name the helper spawn() in taskref-spawners "
            "to have its callers checked",
        ],
        consecutive=True,
    )


@pytest.mark.parametrize("text, config", [
    (HELPER, ""),  # it returns ``asyncio.ensure_future(coro)``: followed (docs/rules/TRF001.md)
    (HIDDEN, "[flake8]\ntaskref-spawners = test_lost.spawn\n"),  # not followed, but named
], ids=["followed", "configured"])
def test_the_loss_confirms_the_finding_at_the_helper_call(
    pytester: pytest.Pytester, text: str, config: str,
) -> None:
    """A helper the analysis follows, or one named in the project's flake8
    configuration: the same loss confirms the finding at the helper's call."""
    pytester.makepyfile(test_lost=text)
    if config:
        pytester.makefile(".cfg", setup=config)
    result = _run(pytester, "--taskref-gc")
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(
        [
            "  created at test_lost.py:13 in main, through spawn() at test_lost.py:5",
            "  confirms TRF001 at test_lost.py:13: *",
        ],
        consecutive=True,
    )


def test_a_helper_of_another_module_is_confirmed(pytester: pytest.Pytester) -> None:
    """The helper in a module of its own, which the analysis reads through the
    project view: the loss confirms the finding at the helper's call, which
    names where the helper is."""
    pytester.makepyfile(
        helpers="import asyncio\n\n\ndef spawn(coro):\n    return asyncio.create_task(coro)\n",
        test_lost=HELPER.replace("\n\ndef spawn(coro):\n    return asyncio.ensure_future(coro)\n",
                                 "\nfrom helpers import spawn\n"),
    )
    result = _run(pytester, "--taskref-gc")
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(
        [
            "  created at test_lost.py:11 in main, through spawn() at helpers.py:5",
            "  confirms TRF001 at test_lost.py:11: task returned by spawn() (helpers.py:4) is not stored*",
        ],
        consecutive=True,
    )


def test_a_cache_of_the_wrong_shape_changes_no_report(pytester: pytest.Pytester) -> None:
    """Issue 31: the project's cache with an index entry of the wrong shape
    (signed with the user's key, so only its shape is wrong) is a miss: the
    loss still confirms the finding, and no advice to name the helper in
    taskref-spawners appears."""
    import marshal

    from flake8_taskref.project.cache import Cache, user_key

    pytester.makefile(".toml", pyproject="")  # a project's root: its cache
    pytester.makepyfile(
        helpers="import asyncio\n\n\ndef spawn(coro):\n    return asyncio.create_task(coro)\n",
        test_lost=HELPER.replace("\n\ndef spawn(coro):\n    return asyncio.ensure_future(coro)\n",
                                 "\nfrom helpers import spawn\n"),
    )
    args = ("-p", "no:cacheprovider", "-o", "asyncio_default_fixture_loop_scope=function", "--taskref-gc")
    pytester.runpytest_subprocess(*args).assert_outcomes(passed=1, errors=1)
    entries = list((pytester.path / ".taskref_cache").glob("*/index/*/*"))
    assert entries
    for path in entries:
        cache = Cache(str(path.parents[3]), path.parents[2].name)
        cache._key = user_key()
        data = marshal.dumps(7)
        path.write_bytes(cache._mac("index", path.name, data) + data)
    result = pytester.runpytest_subprocess(*args)
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(
        ["  confirms TRF001 at test_lost.py:11: task returned by spawn() (helpers.py:4) is not stored*"])
    assert "taskref-spawners" not in result.stdout.str()


UNRETRIEVED = """\
import asyncio


async def boom():
    raise ValueError("lost")


async def main():
    task = asyncio.create_task(boom())
    await asyncio.sleep(0)
    del task


def test_unretrieved():
    asyncio.run(main())
"""


def test_exception_never_retrieved_is_opt_in(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_unretrieved=UNRETRIEVED)
    _run(pytester, "--taskref-gc").assert_outcomes(passed=1)
    result = _run(pytester, "--taskref-gc", "--taskref-gc-exceptions")
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(
        [
            "taskref-gc: 1 task exception(s) never retrieved during this test",
            "- Task-* running boom() (defined at test_unretrieved.py:4): exception never retrieved",
            "  exception: ValueError('lost')",
            "  created at test_unretrieved.py:9 in main",
            "  confirms TRF002 at test_unretrieved.py:9: task returned by asyncio.create_task() is held "
            "only by local 'task', which is never awaited, cancelled or stored; *",
            "fix: await the task, or read task.exception() in a done callback",
        ],
        consecutive=True,
    )


def test_debug_mode_gives_the_same_report(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_lost=LOST)
    result = _run(pytester, "--taskref-gc", "--taskref-gc-debug")
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(REPORT, consecutive=True)
    # debug mode: the loop's own log carries the creation traceback
    result.stdout.fnmatch_lines(["source_traceback: Object created at (most recent call last):"])


def test_patches_are_restored(pytester: pytest.Pytester) -> None:
    import asyncio
    import gc

    def patched() -> tuple:  # type: ignore[type-arg]
        return (
            asyncio.BaseEventLoop.call_exception_handler,
            asyncio.BaseEventLoop.create_task,
            asyncio.all_tasks,
            asyncio.tasks.all_tasks,
            asyncio.coroutines._is_debug_mode,  # type: ignore[attr-defined]
        )

    before = patched()
    frozen = gc.get_freeze_count()  # not 0 when this suite runs under --taskref-gc
    pytester.makepyfile(test_lost=LOST)
    _run(pytester, "--taskref-gc", "--taskref-gc-debug").assert_outcomes(passed=1, errors=1)
    assert patched() == before
    # frozen objects can be freed meanwhile; what matters is that ours were unfrozen
    assert (gc.get_freeze_count() == 0) == (frozen == 0)


def test_watch_keeps_no_reference_to_the_task() -> None:
    """The report is made of strings; the destroyed task is really gone."""
    import asyncio
    import gc
    import weakref

    refs = []

    async def worker(event: asyncio.Event) -> None:
        await event.wait()

    async def main() -> None:
        # lost on purpose: a weak reference keeps nothing
        refs.append(weakref.ref(asyncio.create_task(worker(asyncio.Event()))))  # noqa: TRF001
        await asyncio.sleep(0)

    watch = runtime.Watch()
    watch.start()
    try:
        asyncio.run(main())
        gc.collect()
    finally:
        watch.stop()
    reports = watch.take()
    assert [(r.kind, r.coroutine) for r in reports] == [
        (runtime.DESTROYED, "test_watch_keeps_no_reference_to_the_task.<locals>.worker")
    ]
    assert refs[0]() is None


def test_format_names_the_unknown_creator() -> None:
    report = runtime.Report(runtime.DESTROYED, "Task-9", "worker", None, ())
    text = attribution.format_reports([report], attribution.Attributor("."))
    assert text.splitlines() == [
        "taskref-gc: 1 pending task(s) destroyed by the garbage collector during this test",
        "- Task-9 running worker(): destroyed while pending",
        "  created at: unknown (not by a loop's create_task, e.g. asyncio.Task() called directly; "
        "--taskref-gc-debug records it)",
        "fix: " + attribution.FIX,
    ]


def test_teardown_error_is_kept_and_the_report_shown_beside_it(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_lost=LOST
        + """

import pytest


@pytest.fixture
def broken():
    yield
    raise RuntimeError("fixture teardown failed")


def test_lost_with_broken_teardown(broken):
    asyncio.run(main())
"""
    )
    result = _run(pytester, "--taskref-gc", "-k", "broken")
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(
        ["E       RuntimeError: fixture teardown failed", "*- Captured taskref-gc teardown -*"]
        + REPORT,
        consecutive=False,
    )


SHARED_LOOP = """\
import asyncio

import pytest


async def worker(event):
    await event.wait()


@pytest.mark.asyncio(loop_scope="module")
async def test_first():
    await asyncio.sleep(0)


@pytest.mark.asyncio(loop_scope="module")
async def test_lost():
    asyncio.create_task(worker(asyncio.Event()))
    await asyncio.sleep(0)


@pytest.mark.asyncio(loop_scope="module")
async def test_after():
    await asyncio.sleep(0)
"""


def test_loop_shared_by_the_module(pytester: pytest.Pytester) -> None:
    """The loop outlives the test: the collection after its teardown finds the
    lost task, and the error goes to the test that lost it."""
    pytest.importorskip("pytest_asyncio")
    pytester.makepyfile(test_lost=SHARED_LOOP)
    result = _run(pytester, "--taskref-gc")
    result.assert_outcomes(passed=3, errors=1)
    result.stdout.fnmatch_lines(
        ["*ERROR at teardown of test_lost*", "*", "*", "  created at test_lost.py:17 in test_lost"],
        consecutive=True,
    )
    assert "ERROR test_lost.py::test_lost - " in result.stdout.str()


def test_heap_freezes_despite_the_interpreters_own_freeze() -> None:
    """Python 3.12 starts with objects frozen; the heap must still freeze (it
    skipped it, and walked the whole heap, before this was fixed)."""
    import gc

    if gc.get_freeze_count() not in (0, runtime._STARTUP_FREEZE):
        pytest.skip("something else froze objects (this suite runs under --taskref-gc)")
    heap = runtime.Heap()
    try:
        assert heap.before_test()
        assert gc.get_freeze_count() > runtime._STARTUP_FREEZE
    finally:
        heap.release()
    assert gc.get_freeze_count() == 0


# A package that keeps its workers in self._workers (issue 25, item 13), a
# variant that spawns through a helper returning the task, and a function
# whose worker nothing keeps.
FAKEPOOL = """\
import asyncio


class Pool:
    def __init__(self):
        self._q = asyncio.Queue()
        self._workers = [asyncio.get_running_loop().create_task(self._work())]

    async def _work(self):
        await self._q.get()


class SpawningPool(Pool):
    def __init__(self):
        self._q = asyncio.Queue()
        self._workers = [self._spawn()]

    def _spawn(self):
        return asyncio.get_running_loop().create_task(self._work())


async def _work(queue):
    await queue.get()


def start(queue):
    asyncio.get_running_loop().create_task(_work(queue))
"""

LEAKS_POOL = """\
import asyncio

from fakepool import Pool, SpawningPool, start


async def drop_pool():
    Pool()
    await asyncio.sleep(0)


async def drop_spawning_pool():
    SpawningPool()
    await asyncio.sleep(0)


async def drop_worker():
    start(asyncio.Queue())
    await asyncio.sleep(0)


def test_pool():
    asyncio.run(drop_pool())


def test_spawning_pool():
    asyncio.run(drop_spawning_pool())


def test_worker():
    asyncio.run(drop_worker())
"""


def _error_blocks(result: pytest.RunResult) -> dict:  # type: ignore[type-arg]
    """The lines of each 'ERROR at teardown' section, by test name."""
    blocks = {}
    lines = result.outlines
    for start, line in enumerate(lines):
        if "ERROR at teardown of" in line:
            name = line.split("ERROR at teardown of ")[1].split()[0]
            end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith(("---", "===", "___")))
            blocks[name] = lines[start + 1:end]
    return blocks


def _installed(pytester: pytest.Pytester, site: "Path") -> str:  # noqa: F821
    """fakepool in ``site`` (a site-packages folder), importable by the tests."""
    (site / "fakepool").mkdir(parents=True)
    (site / "fakepool" / "__init__.py").write_text(FAKEPOOL)
    pytester.syspathinsert(site)
    return str(site / "fakepool" / "__init__.py")


def _outside_reports(shown: str) -> dict:  # type: ignore[type-arg]
    created = f"  created at {shown}:7 in __init__"
    return {
        "test_pool": [
            "taskref-gc: 1 pending task(s) destroyed by the garbage collector during this test",
            f"- Task-* running Pool._work() (defined at {shown}:9): destroyed while pending",
            created + ", outside the project, called from test_pool.py:7 in drop_pool",
            "  owned by the fakepool.Pool object whose method it runs, which was dropped with the task "
            "still pending: close the Pool before dropping it",
            "fix: " + attribution.OUTSIDE_FIX,
        ],
        "test_spawning_pool": [
            "taskref-gc: 1 pending task(s) destroyed by the garbage collector during this test",
            f"- Task-* running Pool._work() (defined at {shown}:9): destroyed while pending",
            f"  created at {shown}:16 in __init__, through _spawn() at {shown}:19, outside the project, "
            "called from test_pool.py:12 in drop_spawning_pool",
            "  owned by the fakepool.SpawningPool object whose method it runs, which was dropped with "
            "the task still pending: close the SpawningPool before dropping it",
            "fix: " + attribution.OUTSIDE_FIX,
        ],
        "test_worker": [
            "taskref-gc: 1 pending task(s) destroyed by the garbage collector during this test",
            f"- Task-* running _work() (defined at {shown}:22): destroyed while pending",
            f"  created at {shown}:27 in start, outside the project, "
            "called from test_pool.py:17 in drop_worker",
            "  started by code outside the project for the call at test_pool.py:17: close or stop what that "
            "call opened before dropping it (if nothing can be closed, that code loses the task)",
            "fix: " + attribution.OUTSIDE_FIX,
        ],
    }


def _assert_blocks(result: pytest.RunResult, expected: dict) -> None:  # type: ignore[type-arg]
    import fnmatch

    blocks = _error_blocks(result)
    assert sorted(blocks) == sorted(expected)
    for name, lines in expected.items():
        assert len(blocks[name]) == len(lines), (name, blocks[name])
        for got, pattern in zip(blocks[name], lines):
            assert fnmatch.fnmatchcase(got, pattern), (name, got, pattern)


def test_task_of_a_package_installed_outside_the_root(
    pytester: pytest.Pytester, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Issue 25, item 13: a library's task, lost because the object that kept
    it was dropped unclosed, is not the project's to keep: no taskref-spawners,
    no 'keep a reference', the owner's type and 'close it'."""
    site = tmp_path_factory.mktemp("venv") / "lib" / "site-packages"
    path = _installed(pytester, site)
    pytester.makepyfile(test_pool=LEAKS_POOL)
    result = _run(pytester, "--taskref-gc")
    result.assert_outcomes(passed=3, errors=3)
    _assert_blocks(result, _outside_reports(path))
    assert "taskref-spawners" not in result.stdout.str()
    assert "keep a reference" not in result.stdout.str()


def test_task_of_a_package_installed_below_the_root(pytester: pytest.Pytester) -> None:
    """A virtual environment inside the project is not the project: shown
    relative to the root, reported as outside."""
    _installed(pytester, pytester.path / ".venv" / "lib" / "python3" / "site-packages")
    pytester.makepyfile(test_pool=LEAKS_POOL)
    result = _run(pytester, "--taskref-gc")
    result.assert_outcomes(passed=3, errors=3)
    _assert_blocks(result, _outside_reports(".venv/lib/python3/site-packages/fakepool/__init__.py"))


def test_the_same_code_inside_the_project_keeps_its_report(pytester: pytest.Pytester) -> None:
    """The project's own pool: its spawn is the project's, reported as before."""
    _installed(pytester, pytester.path)
    pytester.makepyfile(test_pool=LEAKS_POOL)
    result = _run(pytester, "--taskref-gc")
    result.assert_outcomes(passed=3, errors=3)
    shown = "fakepool/__init__.py"
    unseen = "  no TRF finding for this spawn: the static analysis does not see this task lost"
    head = "taskref-gc: 1 pending task(s) destroyed by the garbage collector during this test"
    _assert_blocks(
        result,
        {
            "test_pool": [
                head,
                f"- Task-* running Pool._work() (defined at {shown}:9): destroyed while pending",
                f"  created at {shown}:7 in __init__",
                unseen,
                "fix: " + attribution.FIX,
            ],
            "test_spawning_pool": [
                head,
                f"- Task-* running Pool._work() (defined at {shown}:9): destroyed while pending",
                f"  created at {shown}:16 in __init__, through _spawn() at {shown}:19",
                "  no TRF finding for this spawn: name the helper _spawn() in taskref-spawners "
                "to have its callers checked",
                "fix: " + attribution.FIX,
            ],
            "test_worker": [
                head,
                f"- Task-* running _work() (defined at {shown}:22): destroyed while pending",
                f"  created at {shown}:27 in start",
                f"  confirms TRF001 at {shown}:27: *",
                "fix: " + attribution.FIX,
            ],
        },
    )


def test_one_test_losing_a_task_of_each_kind_gets_both_fixes() -> None:
    """A task of the project and one of a library in one test: both fix lines;
    the library's file is not analysed."""
    root = "/project"
    mine = runtime.Report(
        runtime.DESTROYED, "Task-2", "worker", None, (("/project/app.py", 4, "main"),)
    )
    theirs = runtime.Report(
        runtime.DESTROYED,
        "Task-3",
        "Pool._work",
        None,
        (("/project/app.py", 9, "main"), ("/venv/lib/site-packages/pool.py", 7, "__init__")),
        owner="pool.Pool",
    )
    attributor = attribution.Attributor(root)
    text = attribution.format_reports([mine, theirs], attributor)
    assert text.splitlines() == [
        "taskref-gc: 2 pending task(s) destroyed by the garbage collector during this test",
        "- Task-2 running worker(): destroyed while pending",
        "  created at app.py:4 in main",
        "  no TRF finding for this spawn: the static analysis does not see this task lost",
        "- Task-3 running Pool._work(): destroyed while pending",
        "  created at /venv/lib/site-packages/pool.py:7 in __init__, outside the project, "
        "called from app.py:9 in main",
        "  owned by the pool.Pool object whose method it runs, which was dropped with the task "
        "still pending: close the Pool before dropping it",
        "fix: " + attribution.FIX,
        "fix: " + attribution.OUTSIDE_FIX,
    ]


def test_a_librarys_file_is_not_analysed(tmp_path: "Path") -> None:  # noqa: F821
    """The same dropped task: a finding in the project, none in a library;
    what is the project's."""
    source = "import asyncio\n\n\nasync def main(work):\n    asyncio.create_task(work())\n"
    mine = tmp_path / "project" / "app.py"
    theirs = tmp_path / "project" / ".venv" / "lib" / "site-packages" / "app.py"
    for path in (mine, theirs):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source)
    attributor = attribution.Attributor(str(tmp_path / "project"))
    assert [code for _, code, _ in attributor.findings(str(mine))] == ["TRF001"]
    assert attributor.findings(str(theirs)) == []
    assert attributor.in_project(str(mine)) and not attributor.in_project(str(theirs))
    # code beside the root is the project's (tests with a pytest.ini of their own);
    # the standard library is not
    import json

    assert attributor.in_project(str(tmp_path / "src" / "app.py"))
    assert not attributor.in_project(json.__file__)
