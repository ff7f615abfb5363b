"""pytest plugin: fail the test in which a pending asyncio task is garbage-collected.

Off unless asked (``pytest --taskref-gc`` or ``taskref_gc = true`` in the ini
options).  When on, for each test:

* event loops created during the test run in asyncio debug mode, so that every
  task records the stack that created it;
* the cyclic collector runs when a loop shuts down, before its remaining tasks
  are cancelled (``asyncio.run``/``asyncio.Runner`` and the runners of
  pytest-asyncio and anyio, ``loop.close()``), and once more at the end of the
  test's teardown;
* every "Task was destroyed but it is pending!" the loops report in the
  meantime fails the test with one error naming the task, the line that created
  it and, when the static analysis finds something at that line, the finding
  it confirms.

``--taskref-gc=warn`` lists the destroyed tasks in a summary section instead.
``--taskref-gc-exceptions`` also reports "Task exception was never retrieved".
The runtime side is in ``watch.py``; this module holds the pytest hooks.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Generator, List, Optional, Tuple

import pytest

from flake8_taskref.runtime.watch import Attributor, Report, Watch, format_reports

if TYPE_CHECKING:  # pragma: no cover
    from _pytest.terminal import TerminalReporter

MODES = ("fail", "warn", "off")
_TRUE = ("1", "true", "yes", "on")
_FALSE = ("", "0", "false", "no", "off")


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
    mode = mode_of(config)
    if mode == "off":
        return
    exceptions = _flag(config, "taskref_gc_exceptions")
    debug = _flag(config, "taskref_gc_debug")
    if debug and hasattr(config.option, "asyncio_debug"):
        # pytest-asyncio creates its loops in debug mode when asked through its
        # own option (its runner sets the loop's debug flag explicitly).
        config.option.asyncio_debug = True
    config.pluginmanager.register(TaskRefGC(config, mode, exceptions, debug), "taskref-gc")


def _flag(config: pytest.Config, name: str) -> bool:
    value = config.getoption(name)
    if value is None:
        value = config.getini(name)
    return bool(value)


class TaskRefGC:
    """The per-test hooks, registered only when the plugin is on."""

    def __init__(self, config: pytest.Config, mode: str, exceptions: bool, debug: bool) -> None:
        self.mode = mode
        self.exceptions = exceptions
        self.debug = debug
        # configured spawners count: the project's configuration, read as the
        # command reads it (only when the option is on)
        from flake8_taskref.command.config import project_options

        self.attributor = Attributor(str(config.rootpath), project_options(str(config.rootpath)))
        self.watch: Optional[Watch] = None
        self.warned: List[Tuple[str, List[Report]]] = []

    @pytest.hookimpl(wrapper=True, tryfirst=True)
    def pytest_runtest_protocol(
        self, item: pytest.Item, nextitem: Optional[pytest.Item]
    ) -> Generator[None, object, object]:
        self.watch = Watch(exceptions=self.exceptions, debug=self.debug)
        self.watch.start()
        try:
            return (yield)
        finally:
            self.watch.stop()
            self.watch = None

    # Innermost wrapper: after the fixtures are torn down, inside the capture of
    # logs and output (the loop logs what it reports).
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
                if reports:
                    self._report(item, reports, failed)

    def _report(self, item: pytest.Item, reports: List[Report], failed: bool) -> None:
        if self.mode == "warn":
            self.warned.append((item.nodeid, reports))
            return
        text = format_reports(reports, self.attributor)
        if failed:  # the teardown's own error is shown; ours goes beside it
            item.add_report_section("teardown", "taskref-gc", text)
            return
        pytest.fail(text, pytrace=False)

    def pytest_terminal_summary(self, terminalreporter: "TerminalReporter") -> None:
        if not self.warned:
            return
        count = sum(len(reports) for _, reports in self.warned)
        terminalreporter.write_sep("=", f"taskref-gc: {count} pending task(s) destroyed")
        for nodeid, reports in self.warned:
            terminalreporter.write_line(nodeid)
            for line in format_reports(reports, self.attributor).splitlines():
                terminalreporter.write_line("  " + line)
            terminalreporter.write_line("")
