"""pytest plugin: fail the test in which a pending asyncio task is garbage-collected.

Off unless asked (``pytest --taskref-gc`` or ``taskref_gc = true`` in the ini
options).  When on, for each test:

* ``create_task`` of asyncio's loops (and uvloop's) notes the stack that creates
  each task (``--taskref-gc-debug`` runs the loops in asyncio debug mode instead);
* the cyclic collector runs when a shutdown asks for the tasks it will cancel
  (``asyncio.all_tasks``: ``asyncio.run``, ``asyncio.Runner``, the runners of
  pytest-asyncio and anyio, ``IsolatedAsyncioTestCase``), and once more at the
  end of the test's teardown;
* every "Task was destroyed but it is pending!" the loops report in the
  meantime fails the test with one error naming the task, the line that created
  it and, when the static analysis finds something there, the finding it
  confirms.

``--taskref-gc=warn`` lists the destroyed tasks in a summary section instead
(with pytest-xdist too: the workers send them with their reports).
``--taskref-gc-exceptions`` also reports "Task exception was never retrieved".
``@pytest.mark.taskref_gc(allow=True)`` lets one test lose tasks.  Nothing the
plugin does may change a suite's fate otherwise: a configuration it cannot read
gives a warning, and the reports are then made without the static findings.
The watch is in ``watch.py``, the attribution in ``attribution.py``; this
module holds the pytest hooks.
"""
from __future__ import annotations

import gc
import sys
import warnings
from typing import TYPE_CHECKING, Generator, List, Optional, Sequence, Set, Tuple

import pytest

from flake8_taskref.runtime.watch import Heap, Hooks, Report, Watch

# What pytest sets when a test fails, and deletes at the next test's call.
_LAST_EXCEPTION = ("last_type", "last_value", "last_traceback", "last_exc")

if TYPE_CHECKING:  # pragma: no cover
    from _pytest.terminal import TerminalReporter

    from flake8_taskref.runtime.attribution import Attributor

MODES = ("fail", "warn", "off")
MARKER = "taskref_gc"
_TRUE = ("1", "true", "yes", "on")
_FALSE = ("", "0", "false", "no", "off")
REPORT_ATTRIBUTE = "taskref_gc"  # on a teardown report in warn mode: the text (sent by xdist workers)


class TaskRefGCWarning(pytest.PytestWarning):
    """What ``--taskref-gc`` could not do (a configuration it cannot read, a loop it cannot watch)."""


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("taskref", "flake8-taskref: pending tasks destroyed at runtime")
    group.addoption(
        "--taskref-gc",
        dest="taskref_gc",
        nargs="?",
        const="fail",
        default=None,
        metavar="MODE",
        help="fail a test in which a pending asyncio task is garbage-collected "
        "(MODE: fail, the default; warn: list them in a summary; off)",
    )
    group.addoption(
        "--taskref-gc-exceptions",
        dest="taskref_gc_exceptions",
        action="store_true",
        default=None,
        help="with --taskref-gc, also report 'Task exception was never retrieved'",
    )
    group.addoption(
        "--taskref-gc-debug",
        dest="taskref_gc_debug",
        action="store_true",
        default=None,
        help="with --taskref-gc, run the loops created during a test in asyncio debug mode "
        "(slower; creation stacks are noted without it)",
    )
    parser.addini("taskref_gc", "as --taskref-gc: true/fail, warn, or false/off", default="")
    parser.addini(
        "taskref_gc_debug", "as --taskref-gc-debug: true or false", type="bool", default=False
    )
    parser.addini(
        "taskref_gc_exceptions",
        "as --taskref-gc-exceptions: true or false",
        type="bool",
        default=False,
    )


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(
    early_config: pytest.Config, parser: pytest.Parser, args: List[str]
) -> None:
    # ``--taskref-gc tests/`` would take ``tests/`` for the mode: a bare flag
    # not followed by a mode is spelled out before the command line is parsed.
    for index, arg in enumerate(args):
        if arg == "--taskref-gc" and (index + 1 == len(args) or args[index + 1] not in MODES):
            args[index] = "--taskref-gc=fail"


def mode_of(config: pytest.Config) -> str:
    """The mode asked for on the command line or in the ini options."""
    value: Optional[str] = config.getoption("taskref_gc")
    where = "--taskref-gc"
    if value is None:
        value = str(config.getini("taskref_gc")).strip().lower()
        where = "taskref_gc"
        if value in _TRUE:
            value = "fail"
        elif value in _FALSE:
            value = "off"
    if value not in MODES:
        raise pytest.UsageError(f"{where}: {value!r} is not a mode; use one of {', '.join(MODES)}")
    return value


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        f"{MARKER}(allow=True, reason=None): with --taskref-gc, the pending tasks this test "
        "loses are neither failed nor listed (a test that drops a task on purpose)",
    )
    mode = mode_of(config)
    if mode == "off":
        return
    if free_threaded():
        version = "{}.{}".format(*sys.version_info[:2])
        raise pytest.UsageError(
            f"--taskref-gc: not supported on a free-threaded Python ({version}t here): untested there, "
            "and its garbage collector walks the whole heap at every collection; run it on the "
            "default build, or turn it off for this run with --taskref-gc=off"
        )
    exceptions = _flag(config, "taskref_gc_exceptions")
    debug = _flag(config, "taskref_gc_debug")
    if debug and hasattr(config.option, "asyncio_debug"):
        # pytest-asyncio creates its loops in debug mode when asked through its
        # own option (its runner sets the loop's debug flag explicitly).
        config.option.asyncio_debug = True
    config.pluginmanager.register(TaskRefGC(config, mode, exceptions, debug), "taskref-gc")
    if mode == "warn":
        config.pluginmanager.register(WarnSummary(), "taskref-gc-warn")


def free_threaded() -> bool:
    """Whether this Python is a free-threaded build (3.13t, 3.14t, ...), with the
    GIL enabled at run time or not: its collector is not generational, and its
    ``gc.freeze()`` marks every object of the heap."""
    import sysconfig

    return bool(sysconfig.get_config_var("Py_GIL_DISABLED"))


def _flag(config: pytest.Config, name: str) -> bool:
    value = config.getoption(name)
    if value is None:
        value = config.getini(name)
    return bool(value)


def _attributor(root: str) -> "Attributor":
    """Findings are matched with the project's configuration, read as the
    command reads it (configured spawners count), at the first report: a
    session that loses no task reads nothing and loads no analysis.  If it
    cannot be read: one warning, and no static finding is matched (the
    defaults could claim a finding the project silenced, or miss one it
    configured)."""
    from flake8_taskref.project.config import settings_at
    from flake8_taskref.runtime.attribution import Attributor

    try:
        return Attributor(root, settings=settings_at(root))
    except Exception as exc:  # ConfigError, or anything reading it raised
        _warn(
            f"--taskref-gc: the project's flake8-taskref configuration cannot be read ({exc}); "
            "lost tasks are reported without the static findings they confirm"
        )
        return Attributor(root, static=False)


def _warn(text: str) -> None:
    """A warning that filters may hide but not turn into an error: what the
    plugin could not do must not fail a test."""
    try:
        warnings.warn(TaskRefGCWarning(text), stacklevel=3)
    except TaskRefGCWarning:
        with warnings.catch_warnings():
            warnings.simplefilter("always", TaskRefGCWarning)
            warnings.warn(TaskRefGCWarning(text), stacklevel=3)


class TaskRefGC:
    """The per-test hooks, registered only when the plugin is on."""

    def __init__(self, config: pytest.Config, mode: str, exceptions: bool, debug: bool) -> None:
        self.mode = mode
        self.exceptions = exceptions
        self.debug = debug
        self.root = str(config.rootpath)
        self.attributor: Optional["Attributor"] = None
        self.heap = Heap()
        self.hooks = Hooks(debug)
        self.watch: Optional[Watch] = None
        self.unwatched: Set[str] = set()  # loop classes already warned about

    @pytest.hookimpl(wrapper=True, tryfirst=True)
    def pytest_runtest_protocol(
        self, item: pytest.Item, nextitem: Optional[pytest.Item]
    ) -> Generator[None, object, object]:
        # The last failed test's exception, which pytest keeps for a post-mortem
        # until the next test's call: its traceback holds that test's frames
        # (a server's socket, say).  It is dropped here, as pytest drops it a
        # moment later, and what it held is collected: else the collections
        # of the failed test (its teardown's, ours) had aged it, or the heap
        # would freeze it, and it would live on for several tests where it
        # dies at once without the plugin (a port left bound for the next
        # tests: aio-msgpack-rpc's suite, a new user's run).
        if any(hasattr(sys, name) for name in _LAST_EXCEPTION):
            for name in _LAST_EXCEPTION:
                if hasattr(sys, name):
                    delattr(sys, name)
            gc.collect()
        self.watch = Watch(exceptions=self.exceptions, heap=self.heap, hooks=self.hooks)
        self.watch.start()
        try:
            return (yield)
        finally:
            self.watch.stop()
            self.watch = None

    def pytest_unconfigure(self) -> None:
        self.hooks.remove()
        self.heap.release()

    # Innermost wrapper: after the fixtures are torn down, inside the capture of
    # logs, output and warnings (the loop logs what it reports).
    @pytest.hookimpl(wrapper=True, trylast=True)
    def pytest_runtest_teardown(
        self, item: pytest.Item, nextitem: Optional[pytest.Item]
    ) -> Generator[None, None, None]:
        failed = True
        try:
            yield
            failed = False
        finally:
            watch = self.watch
            if watch is not None:
                watch.collect()
                reports = watch.take()
                self._warn_unwatched(watch.unwatched)
                if reports and not _allowed(item):
                    self._report(item, reports, failed)

    def _report(self, item: pytest.Item, reports: List[Report], failed: bool) -> None:
        text = self._format(reports)
        if self.mode == "warn":
            item.stash[_WARNED] = text  # put on the teardown report, for this process or xdist's controller
            return
        if failed:  # the teardown's own error is shown; ours goes beside it
            item.add_report_section("teardown", "taskref-gc", text)
            return
        pytest.fail(text, pytrace=False)

    def _format(self, reports: Sequence[Report]) -> str:
        try:
            from flake8_taskref.runtime.attribution import format_reports

            if self.attributor is None:
                self.attributor = _attributor(self.root)
            return format_reports(reports, self.attributor)
        except Exception as exc:  # a bug of ours must not hide the loss, nor break the run
            names = ", ".join(f"{report.name} running {report.coroutine}()" for report in reports)
            return f"taskref-gc: {len(reports)} task(s) lost during this test: {names} (no details: {exc!r})"

    def _warn_unwatched(self, classes: Set[str]) -> None:
        for name in sorted(classes - self.unwatched):
            self.unwatched.add(name)
            _warn(
                f"--taskref-gc: loops of {name} are not watched (imported during this test, or a class "
                "that cannot be patched): tasks lost on them are not reported"
            )


class WarnSummary:
    """Warn mode's hooks, registered only then: the lost tasks of a test go on
    its teardown report (which pytest-xdist's workers send to their
    controller), and the summary lists them."""

    def __init__(self) -> None:
        self.warned: List[Tuple[str, str]] = []  # (node id, text)

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(
        self, item: pytest.Item, call: "pytest.CallInfo[None]"
    ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
        report = yield
        if call.when == "teardown" and _WARNED in item.stash:
            setattr(report, REPORT_ATTRIBUTE, item.stash[_WARNED])
            del item.stash[_WARNED]
        return report

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        # Here in this process, or in xdist's controller for its workers' reports.
        text = getattr(report, REPORT_ATTRIBUTE, None)
        if report.when == "teardown" and isinstance(text, str):
            self.warned.append((report.nodeid, text))

    def pytest_terminal_summary(self, terminalreporter: "TerminalReporter") -> None:
        if not self.warned:
            return
        destroyed = sum(_count(text, ": destroyed while pending") for _, text in self.warned)
        unread = sum(_count(text, ": exception never retrieved") for _, text in self.warned)
        title = [f"{destroyed} pending task(s) destroyed"] if destroyed else []
        title += [f"{unread} task exception(s) never retrieved"] if unread else []
        terminalreporter.write_sep("=", "taskref-gc: " + " and ".join(title or ["lost tasks"]))
        for nodeid, text in self.warned:
            terminalreporter.write_line(nodeid)
            for line in text.splitlines():
                terminalreporter.write_line("  " + line)
            terminalreporter.write_line("")


_WARNED = pytest.StashKey[str]()


def _allowed(item: pytest.Item) -> bool:
    marker = item.get_closest_marker(MARKER)
    return marker is not None and bool(marker.kwargs.get("allow", False))


def _count(text: str, what: str) -> int:
    return sum(1 for line in text.splitlines() if line.startswith("- ") and line.endswith(what))
