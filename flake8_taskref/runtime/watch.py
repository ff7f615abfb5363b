"""Catch pending asyncio tasks that are garbage-collected, and say which static
finding each one confirms.  Used by the pytest plugin (``pytest_plugin.py``);
nothing here depends on pytest.

A :class:`Watch` is started for one test and stopped after it.  While it runs,
it patches, and afterwards restores:

* ``BaseEventLoop.call_exception_handler``: the loop's reports of a task
  destroyed while pending (and, if asked, of a task exception never retrieved)
  are recorded as :class:`Report` objects (strings and numbers only: nothing
  that keeps a task or its frames alive), then handled as before;
* ``asyncio.coroutines._is_debug_mode``: loops created meanwhile start in debug
  mode, so that tasks record the stack that created them;
* the ``_cancel_all_tasks`` of ``asyncio.runners`` (``asyncio.run`` and
  ``asyncio.Runner``) and of the runner back-ports anyio and pytest-asyncio use
  on Python < 3.11, and ``BaseEventLoop.close``: the cyclic collector runs
  first, so that a lost task is destroyed (and reported) instead of being
  cancelled cleanly with the others.

The static analysis runs only on the files a destroyed task points at, once
per file (:class:`Attributor`).
"""
from __future__ import annotations

import ast
import asyncio
import gc
import importlib
import os
import sys
import tokenize
from dataclasses import dataclass
from types import FrameType, ModuleType
from typing import Any, Callable, Dict, List, Optional, Sequence, Set, Tuple

from flake8_taskref.analysis.options import Options
from flake8_taskref.analysis.api import analyse

DESTROYED = "Task was destroyed but it is pending!"
NOT_RETRIEVED = "Task exception was never retrieved"

# Modules whose ``_cancel_all_tasks(loop)`` starts a runner's shutdown.
_CANCEL_ALL = (
    "asyncio.runners",
    "anyio._backends._asyncio",
    "backports.asyncio.runner.runner",
)
_STARTUP_FREEZE = gc.get_freeze_count()  # 375 on 3.12.1, 0 on 3.9-3.11 and 3.13
_ASYNCIO_DIR = os.path.dirname(os.path.abspath(asyncio.__file__)) + os.sep

Frame = Tuple[str, int, str]  # file name, line, function
STACK_DEPTH = 12  # frames noted for a task created with the loop not in debug mode


@dataclass(frozen=True)
class Report:
    """What the loop said about one task, kept as plain values."""

    kind: str  # DESTROYED or NOT_RETRIEVED
    name: str  # the task's name, e.g. "Task-3"
    coroutine: str  # qualified name of its coroutine
    defined: Optional[Tuple[str, int]]  # where the coroutine function is defined
    created: Tuple[Frame, ...]  # the creation stack, outermost first ((): not recorded)
    exception: Optional[str] = None  # NOT_RETRIEVED: the exception's repr

    @classmethod
    def of(
        cls, kind: str, context: Dict[str, Any], noted: Tuple[Frame, ...] = ()
    ) -> Optional["Report"]:
        task = context.get("task" if kind == DESTROYED else "future")
        if not isinstance(task, asyncio.Task):
            return None
        coro = task.get_coro()
        code = getattr(coro, "cr_code", None) or getattr(coro, "gi_code", None)
        stack = context.get("source_traceback") or getattr(task, "_source_traceback", None)
        created = tuple((entry.filename, entry.lineno or 0, entry.name) for entry in stack or ())
        exception = context.get("exception")
        return cls(
            kind=kind,
            name=task.get_name(),
            coroutine=_name_of(coro),
            defined=(code.co_filename, code.co_firstlineno) if code is not None else None,
            created=created or noted,
            exception=repr(exception) if exception is not None else None,
        )

    def user_frames(self) -> List[Frame]:
        """The creation stack without asyncio's own frames, innermost first."""
        return [
            frame
            for frame in reversed(self.created)
            if not frame[0].startswith(_ASYNCIO_DIR) and frame[0] != __file__
        ]


class Watch:
    """Records the loops' reports while started; see the module docstring."""

    def __init__(self, exceptions: bool = False, debug: bool = False) -> None:
        self.kinds = (DESTROYED, NOT_RETRIEVED) if exceptions else (DESTROYED,)
        self.debug = debug
        self.reports: List[Report] = []
        # id(task): (its coroutine's name, the stack that created it)
        self._created: Dict[int, Tuple[str, Tuple[Frame, ...]]] = {}
        self._restore: List[Tuple[object, str, object]] = []
        self._frozen = False

    def start(self) -> None:
        # Everything made before the test is moved out of the collector's sight
        # (gc.freeze), so that each collection walks only what the test made:
        # a full collection of a pytest process costs tens of milliseconds.
        # Not if someone else froze objects: unfreezing would undo their freeze
        # (Python 3.12 starts with a few hundred objects frozen: those do not count).
        if gc.get_freeze_count() in (0, _STARTUP_FREEZE):
            gc.freeze()
            self._frozen = True
        _ACTIVE.append(self)
        base = asyncio.BaseEventLoop
        handle = base.call_exception_handler
        close = base.close
        create_task = base.create_task
        watch = self

        def call_exception_handler(loop: asyncio.BaseEventLoop, context: Dict[str, Any]) -> None:
            if _ACTIVE and _ACTIVE[-1] is watch:  # a watch started inside records alone
                watch.record(context)
            handle(loop, context)

        def close_after_collect(loop: asyncio.BaseEventLoop) -> None:
            if not loop.is_closed() and not loop.is_running():
                watch.collect()
            close(loop)

        def create_task_noting_caller(
            loop: asyncio.BaseEventLoop, coro: Any, *args: Any, **kwargs: Any
        ) -> "asyncio.Task[Any]":
            task = create_task(loop, coro, *args, **kwargs)
            if _ACTIVE and _ACTIVE[-1] is watch:
                watch.note(task, sys._getframe(1))
            return task

        self._patch(base, "call_exception_handler", call_exception_handler)
        self._patch(base, "close", close_after_collect)
        self._patch(base, "create_task", create_task_noting_caller)
        coroutines = sys.modules["asyncio.coroutines"]
        if self.debug and hasattr(coroutines, "_is_debug_mode"):
            self._patch(coroutines, "_is_debug_mode", _debug_mode)
        for name in _CANCEL_ALL:
            module = _runner_module(name)
            cancel_all = getattr(module, "_cancel_all_tasks", None)
            if module is not None and callable(cancel_all):
                self._patch(module, "_cancel_all_tasks", _collect_first(cancel_all, self))

    def note(self, task: "asyncio.Task[Any]", frame: Optional[FrameType]) -> None:
        """Remember where ``task`` was created (by id: a reference would keep
        it alive), until it is done."""
        if not isinstance(task, asyncio.Future):
            return
        stack: List[Frame] = []
        while frame is not None and len(stack) < STACK_DEPTH:
            stack.append((frame.f_code.co_filename, frame.f_lineno, frame.f_code.co_name))
            frame = frame.f_back
        stack.reverse()
        self._created[id(task)] = (_name_of(task.get_coro()), tuple(stack))
        if NOT_RETRIEVED not in self.kinds:
            # A finished task cannot be destroyed pending; but its exception
            # can be reported as never retrieved when it is freed.
            task.add_done_callback(self.forget)

    def forget(self, task: "asyncio.Future[Any]") -> None:
        """Done callback: a finished task cannot be destroyed pending."""
        self._created.pop(id(task), None)

    def stop(self) -> None:
        while self._restore:
            owner, name, original = self._restore.pop()
            setattr(owner, name, original)
        if self._frozen:
            gc.unfreeze()
            self._frozen = False
        self._created.clear()
        if self in _ACTIVE:
            _ACTIVE.remove(self)

    def record(self, context: Dict[str, Any]) -> None:
        """Keep a report of ``context`` if it is one of the watched kinds."""
        message = context.get("message")
        if message in self.kinds:
            task = context.get("task", context.get("future"))
            name, stack = self._created.pop(id(task), ("", ()))
            if not isinstance(task, asyncio.Task) or name != _name_of(task.get_coro()):
                stack = ()  # not noted, or another object that had the same id
            report = Report.of(str(message), context, stack)
            if report is not None:
                self.reports.append(report)

    def collect(self) -> None:
        """Run the cyclic collector: lost tasks are destroyed and reported now.

        Only if a task created during the test may still be pending (or, when
        exceptions are watched, exists): what existed before is frozen, and a
        task that is done cannot be destroyed pending.  Tasks not created by
        ``BaseEventLoop.create_task`` (``asyncio.Task(...)`` called directly)
        are not noted: they are found only when a noted task is pending too."""
        if self._created:
            gc.collect()

    def take(self) -> List[Report]:
        reports, self.reports = self.reports, []
        return reports

    def _patch(self, owner: object, name: str, value: object) -> None:
        self._restore.append((owner, name, getattr(owner, name)))
        setattr(owner, name, value)


_MISSING: Set[str] = set()
_ACTIVE: List[Watch] = []  # started watches, innermost last (pytester runs nest them)


def _runner_module(name: str) -> Optional[ModuleType]:
    """The module ``name`` if its package is in use (imported now if it is
    not yet: anyio imports its asyncio back end during the first test)."""
    module = sys.modules.get(name)
    if module is None and name.partition(".")[0] in sys.modules and name not in _MISSING:
        try:
            module = importlib.import_module(name)
        except ImportError:
            _MISSING.add(name)
    return module


def _name_of(coro: object) -> str:
    return str(getattr(coro, "__qualname__", None) or type(coro).__name__)


def _debug_mode() -> bool:
    return True


def _collect_first(cancel_all: Callable[[Any], None], watch: Watch) -> Callable[[Any], None]:
    def cancel_all_tasks(loop: Any) -> None:
        watch.collect()
        cancel_all(loop)

    return cancel_all_tasks


Finding = Tuple[int, str, str]  # line, code, message


class Attributor:
    """Maps a creation stack to the static finding it confirms; each file is
    analysed once, and only when a report points at it."""

    def __init__(self, root: str, options: Optional[Options] = None) -> None:
        self.root = os.path.abspath(root)
        self.options = options if options is not None else Options.build()
        self._findings: Dict[str, List[Finding]] = {}

    def findings(self, path: str) -> List[Finding]:
        if path not in self._findings:
            self._findings[path] = self._analyse(path)
        return self._findings[path]

    def _analyse(self, path: str) -> List[Finding]:
        if not path.endswith(".py"):
            return []
        try:
            with tokenize.open(path) as source:
                text = source.read()
            lines = text.splitlines(True)
            errors = analyse(ast.parse(text, path), self.options, lines=lines, text=text, filename=path)
        except (OSError, SyntaxError, ValueError, RecursionError):
            return []
        return [(error.lineno, str(getattr(error, "code", "")), error.message) for error in errors]

    def confirms(self, frames: Sequence[Frame]) -> Optional[Tuple[str, int, str, str]]:
        """The first finding, innermost frame first, that a frame's line
        confirms: the finding is at that line, or names the task created there
        ("task 'x' (line 14) ...")."""
        for path, line, _ in frames:
            for at, code, message in self.findings(path):
                if at == line or f"(line {line})" in message:
                    return path, at, code, message
        return None

    def show(self, path: str) -> str:
        absolute = os.path.abspath(path)
        if absolute.startswith(self.root + os.sep):
            return os.path.relpath(absolute, self.root)
        return path


FIX = (
    "keep a reference to every task until it is done: add it to a set and call "
    "task.add_done_callback(tasks.discard), run it in an asyncio.TaskGroup, or await or cancel it"
)


def format_reports(reports: Sequence[Report], attributor: Attributor) -> str:
    """One message for all the reports of a test."""
    destroyed = sum(1 for report in reports if report.kind == DESTROYED)
    lost = len(reports) - destroyed
    parts = []
    if destroyed:
        parts.append(f"{destroyed} pending task(s) destroyed by the garbage collector")
    if lost:
        parts.append(f"{lost} task exception(s) never retrieved")
    lines = ["taskref-gc: " + " and ".join(parts) + " during this test"]
    for report in reports:
        lines.extend(_describe(report, attributor))
    if destroyed:
        lines.append("fix: " + FIX)
    else:
        lines.append("fix: await the task, or read task.exception() in a done callback")
    return "\n".join(lines)


def _describe(report: Report, attributor: Attributor) -> List[str]:
    what = "destroyed while pending" if report.kind == DESTROYED else "exception never retrieved"
    head = f"- {report.name} running {report.coroutine}()"
    if report.defined is not None:
        head += f" (defined at {_at(attributor, report.defined)})"
    lines = [head + f": {what}"]
    if report.exception is not None:
        lines.append(f"  exception: {report.exception}")
    frames = report.user_frames()
    if not report.created:
        lines.append("  created at: unknown (not by BaseEventLoop.create_task, and not in debug mode)")
        return lines
    if frames:
        path, line, function = frames[0]
        lines.append(f"  created at {_at(attributor, (path, line))} in {function}")
    confirmed = attributor.confirms(frames)
    if confirmed is None:
        lines.append("  no TRF finding at the lines that created it: the static analysis misses this spawn")
    else:
        path, line, code, message = confirmed
        lines.append(f"  confirms {code} at {_at(attributor, (path, line))}: {message}")
    return lines


def _at(attributor: Attributor, where: Tuple[str, int]) -> str:
    return f"{attributor.show(where[0])}:{where[1]}"
